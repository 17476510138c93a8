"""The scenario feature: the builder, the import of a cluster's tool output, and the scenario under every assignor
(cached); every other feature may import it."""
