"""The Discord layer: the client, the ``/cribbage`` commands, the components and the sending.

It turns interactions into game service calls and what they return into Discord messages;
it decides no rule.
"""
