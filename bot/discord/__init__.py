"""The Discord layer: the client, the ``/cribbage`` commands, the components and the courier.

It turns interactions into calls on the core (``bot.core.services.Services``) and what they
return into Discord messages; it decides no rule.
"""
