"""Server reflection through a real server: v1 (what grpcurl asks first) and v1alpha, and the
descriptors carry the .proto's comments, so a reflection client shows the documentation."""

from __future__ import annotations

import grpc
import pytest
import trio
from google.protobuf import descriptor_pb2
from grpc_reflection.v1alpha import reflection_pb2 as rpb

from .conftest import Arena

# grpc.reflection.v1 is v1alpha renamed, field for field: the v1alpha messages are a v1 client.
METHODS = {
    "v1": "/grpc.reflection.v1.ServerReflection/ServerReflectionInfo",
    "v1alpha": "/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo",
}


def ask(target: str, version: str, request: rpb.ServerReflectionRequest
        ) -> rpb.ServerReflectionResponse:
    with grpc.insecure_channel(target) as channel:
        call = channel.stream_stream(
            METHODS[version], request_serializer=rpb.ServerReflectionRequest.SerializeToString,
            response_deserializer=rpb.ServerReflectionResponse.FromString,
        )
        (response,) = call(iter([request]), timeout=10)
        return response  # type: ignore[no-any-return]


def comments(proto: descriptor_pb2.FileDescriptorProto) -> str:
    return "\n".join(
        location.leading_comments + location.trailing_comments
        for location in proto.source_code_info.location
    )


@pytest.mark.parametrize("version", ["v1", "v1alpha"])
async def test_reflection_serves_the_protocol_with_its_comments(
    arena: Arena, version: str
) -> None:
    request = rpb.ServerReflectionRequest(file_containing_symbol="tarot_arena.v1.DecisionRequest")
    response = await trio.to_thread.run_sync(ask, arena.target, version, request)
    assert response.WhichOneof("message_response") == "file_descriptor_response"
    (raw,) = response.file_descriptor_response.file_descriptor_proto
    proto = descriptor_pb2.FileDescriptorProto.FromString(raw)
    assert proto.name == "tarot_arena/v1/arena.proto"
    assert "DecisionRequest" in [m.name for m in proto.message_type]
    text = comments(proto)
    assert "A discard is asked one card at a time" in text  # DecisionRequest's own comment
    assert "not recorded: an answer to a request already settled" in text  # LATE_ANSWER
    assert "SEQUENCE NUMBERS" in text  # the file's header

    listing = await trio.to_thread.run_sync(
        ask, arena.target, version, rpb.ServerReflectionRequest(list_services=""))
    assert {s.name for s in listing.list_services_response.service} == {
        "tarot_arena.v1.BotService", "tarot_arena.v1.AdminService", "grpc.health.v1.Health",
        "grpc.reflection.v1.ServerReflection", "grpc.reflection.v1alpha.ServerReflection",
    }
    missing = await trio.to_thread.run_sync(
        ask, arena.target, version, rpb.ServerReflectionRequest(file_containing_symbol="no.Such"))
    assert missing.error_response.error_code == grpc.StatusCode.NOT_FOUND.value[0]
    by_name = await trio.to_thread.run_sync(
        ask, arena.target, version,
        rpb.ServerReflectionRequest(file_by_filename="grpc_health/v1/health.proto"))
    (health,) = by_name.file_descriptor_response.file_descriptor_proto
    assert descriptor_pb2.FileDescriptorProto.FromString(health).package == "grpc.health.v1"


def test_the_shipped_descriptor_set_matches_the_generated_code() -> None:
    """``make proto`` writes both: a descriptor set older than the code would serve stale
    documentation (or none for new messages)."""
    from arena.proto_gen.tarot_arena.v1 import arena_pb2
    from arena.transport.reflection import documented_files

    documented = descriptor_pb2.FileDescriptorProto.FromString(
        documented_files()[arena_pb2.DESCRIPTOR.name])
    assert documented.source_code_info.location
    documented.ClearField("source_code_info")
    generated = descriptor_pb2.FileDescriptorProto()
    arena_pb2.DESCRIPTOR.CopyToProto(generated)
    assert without_json_names(documented) == without_json_names(generated)


def without_json_names(file: descriptor_pb2.FileDescriptorProto
                       ) -> descriptor_pb2.FileDescriptorProto:
    """protoc writes each field's json_name into a descriptor set, not into generated code."""
    def strip(message: descriptor_pb2.DescriptorProto) -> None:
        for field in message.field:
            field.ClearField("json_name")
        for nested in message.nested_type:
            strip(nested)

    for message in file.message_type:
        strip(message)
    return file
