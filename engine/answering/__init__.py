"""From canonical facts to the answer: judgment, headline, drivers and what the answer says about
its reach."""
