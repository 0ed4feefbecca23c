"""Clients of the Tarot Arena: the Python bot SDK (:mod:`clients.sdk`), its command line
(``python -m clients.run``) and example bots such as :mod:`clients.random_bot`.

Bots talk to the arena only through the protocol in ``proto/tarot_arena/v1/arena.proto``; this
package is one client of it among others, and depends on :mod:`arena` only for the rules' value
types and the one protobuf conversion module.
"""
