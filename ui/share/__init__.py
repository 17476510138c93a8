"""The share feature (KIP-932 share partitions): the Share Delivery page's inputs and downloads, the Sizing page's
share-or-consumer-group comparison, their cached work."""
