"""The `pali` server: the Digital Pāḷi Dictionary (DPD) for agents."""
