"""Linguistic knowledge and learned parameters every stage reads: word lists, text helpers, linear models."""
