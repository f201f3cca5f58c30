//! The searcher (built in the searcher issue).
