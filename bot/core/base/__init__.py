"""What every wing of the core shares: owners and their change feed, the views of messages, what a
call hands back, faults and refusals, Discord's timing facts, the words every message uses, and
the deck's procedure.
"""
