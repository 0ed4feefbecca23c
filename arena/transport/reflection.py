"""gRPC server reflection, v1 and v1alpha, serving the protocol with its comments.

grpcio-reflection implements only ``grpc.reflection.v1alpha``, and builds its answers with
``FileDescriptor.CopyToProto``, which drops the comments: a reflection client would show the
messages without the documentation that is the protocol's contract. This servicer answers from
the descriptor set that ``make proto`` writes with ``--include_source_info`` (comments
included), and is registered under both service names: ``grpc.reflection.v1`` is
``v1alpha`` renamed, field for field, so the same messages serve both (grpcurl asks v1 first).
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Iterable
from importlib import resources
from typing import Any, Final

import grpc
from google.protobuf import descriptor_pb2, descriptor_pool
from google.protobuf.descriptor import FileDescriptor
from grpc_reflection.v1alpha import reflection_pb2 as rpb

log = logging.getLogger(__name__)

V1: Final = "grpc.reflection.v1.ServerReflection"
V1ALPHA: Final = "grpc.reflection.v1alpha.ServerReflection"
DESCRIPTOR_SET: Final = ("arena.proto_gen.tarot_arena.v1", "arena.binpb")
"""The package and file name of the descriptor set with source info (see the Makefile)."""


def documented_files() -> dict[str, bytes]:
    """File name -> serialized FileDescriptorProto with its comments, from the shipped set."""
    package, name = DESCRIPTOR_SET
    try:
        data = resources.files(package).joinpath(name).read_bytes()
    except FileNotFoundError:
        log.warning("%s is missing (run make proto): reflection serves no comments", name)
        return {}
    descriptors = descriptor_pb2.FileDescriptorSet.FromString(data)
    return {f.name: f.SerializeToString() for f in descriptors.file}


class ServerReflection:
    """The ServerReflectionInfo stream, on the default descriptor pool."""

    def __init__(self, service_names: Iterable[str], documented: dict[str, bytes]) -> None:
        self.service_names = sorted({*service_names, V1, V1ALPHA})
        self.documented = documented
        self.pool = descriptor_pool.Default()

    async def ServerReflectionInfo(
        self, requests: AsyncIterator[rpb.ServerReflectionRequest], context: Any
    ) -> AsyncIterator[rpb.ServerReflectionResponse]:
        async for request in requests:
            yield self.answer(request)

    def answer(self, request: rpb.ServerReflectionRequest) -> rpb.ServerReflectionResponse:
        kind = request.WhichOneof("message_request")
        try:
            if kind == "file_by_filename":
                return self._files(request, self.pool.FindFileByName(request.file_by_filename))
            if kind == "file_containing_symbol":
                symbol = request.file_containing_symbol
                return self._files(request, self.pool.FindFileContainingSymbol(symbol))
            if kind == "file_containing_extension":
                wanted = request.file_containing_extension
                message = self.pool.FindMessageTypeByName(wanted.containing_type)
                extension = self.pool.FindExtensionByNumber(message, wanted.extension_number)
                return self._files(request, extension.file)
            if kind == "all_extension_numbers_of_type":
                message = self.pool.FindMessageTypeByName(request.all_extension_numbers_of_type)
                numbers = sorted(e.number for e in self.pool.FindAllExtensions(message))
                return rpb.ServerReflectionResponse(
                    original_request=request,
                    all_extension_numbers_response=rpb.ExtensionNumberResponse(
                        base_type_name=message.full_name, extension_number=numbers),
                )
            if kind == "list_services":
                return rpb.ServerReflectionResponse(
                    original_request=request,
                    list_services_response=rpb.ListServiceResponse(
                        service=[rpb.ServiceResponse(name=n) for n in self.service_names]),
                )
        except KeyError as exc:
            return _error(request, grpc.StatusCode.NOT_FOUND, f"not found: {exc}")
        return _error(request, grpc.StatusCode.INVALID_ARGUMENT, "empty reflection request")

    def _files(
        self, request: rpb.ServerReflectionRequest, file: FileDescriptor
    ) -> rpb.ServerReflectionResponse:
        """The file and every file it imports, transitively, each once."""
        files: dict[str, FileDescriptor] = {}
        stack = [file]
        while stack:
            current = stack.pop()
            if current.name not in files:
                files[current.name] = current
                stack.extend(current.dependencies)
        return rpb.ServerReflectionResponse(
            original_request=request,
            file_descriptor_response=rpb.FileDescriptorResponse(
                file_descriptor_proto=[self._serialized(f) for f in files.values()]),
        )

    def _serialized(self, file: FileDescriptor) -> bytes:
        documented = self.documented.get(file.name)
        if documented is not None:
            return documented
        proto = descriptor_pb2.FileDescriptorProto()
        file.CopyToProto(proto)
        return proto.SerializeToString()


def _error(
    request: rpb.ServerReflectionRequest, code: grpc.StatusCode, text: str
) -> rpb.ServerReflectionResponse:
    return rpb.ServerReflectionResponse(
        original_request=request,
        error_response=rpb.ErrorResponse(error_code=code.value[0], error_message=text),
    )


def enable_reflection(service_names: Iterable[str], server: grpc.aio.Server) -> None:
    """Serve reflection v1 and v1alpha on ``server`` for ``service_names`` (and itself)."""
    servicer = ServerReflection(service_names, documented_files())
    handler = grpc.stream_stream_rpc_method_handler(
        servicer.ServerReflectionInfo,
        request_deserializer=rpb.ServerReflectionRequest.FromString,
        response_serializer=rpb.ServerReflectionResponse.SerializeToString,
    )
    for service in (V1, V1ALPHA):
        server.add_generic_rpc_handlers(
            (grpc.method_handlers_generic_handler(service, {"ServerReflectionInfo": handler}),)
        )
