//! Wires corpus, index, rank and models into the search/answer pipeline
