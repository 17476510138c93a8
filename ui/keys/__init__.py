"""The keys feature: the Keys page's key sample and null-key producer inputs, its first tab (histogram), its group
coordinator tab, its cached hashing and remap curve."""
