"""What an operator of the bot reads: its health and readiness (:mod:`bot.ops.health`), its
metrics in Prometheus's format (:mod:`bot.ops.metrics`), served over HTTP on a port of their
own or beside the game pages (:mod:`bot.ops.server`)."""
