//! Endgame tables (built in the tables issue).
