"""The keys feature: the Keys page's key sample and null-key producer inputs, its cached hashing and remap curve."""
