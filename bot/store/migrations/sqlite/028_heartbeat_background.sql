-- older releases: run beside it
-- What a process runs in the background that is not as it should be, as its heartbeat says it
-- (for `python -m bot health`, on hosts with no port for `/readyz`): '' while every part is
-- well, else each such part with its state, '; ' between them ("director: failing: OSError:
-- ..."). A process of an older release writes no such thing, and leaves it ''.
ALTER TABLE bot_processes ADD COLUMN background TEXT NOT NULL DEFAULT '';
