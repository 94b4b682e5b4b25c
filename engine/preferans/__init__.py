"""Preferans (Sochi, docs/rules.md P1–P18): the deal, its outcome and entries, and the pulya
sheet."""
