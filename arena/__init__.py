"""Tarot Arena: a gRPC arena for French Tarot bots with duplicate scoring."""
