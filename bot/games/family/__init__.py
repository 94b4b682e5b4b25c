"""The Frap family's bot side (Frap, Khrap, Student Khrap, Napoleon: a `TrickDeal`): its tables
played deal after deal (`table`), its messages (`render`) and its money told (`account`)."""
