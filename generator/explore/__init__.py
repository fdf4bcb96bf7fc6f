"""The exploring pages' data: the topic map's layout and regions, Browse's facets."""
