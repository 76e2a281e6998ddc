"""Club nights: tournaments scheduled as Discord events, recurring, that make a league."""
