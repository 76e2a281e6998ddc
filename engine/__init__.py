"""The rules of cribbage, pure: no I/O, no Discord, no asyncio; randomness is passed in."""
