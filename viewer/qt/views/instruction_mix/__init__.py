"""Instruction mix."""
