//! The table files: their names and what a folder holds (`tier_files`), the header and its
//! checks (`format`), an open table (`table`), the compressed form (`codec`), the file
//! helpers every writer goes through (`files`: the atomic write, files created afresh or
//! opened as one's own), the folder's lock (`lock`), watched maps (`mapped`), the
//! published Awari database's files (`published`) and the record of payloads already checked
//! (`checked`).

pub mod checked;
pub(crate) mod codec;
pub mod files;
pub mod format;
pub(crate) mod lock;
pub(crate) mod mapped;
pub mod published;
pub(crate) mod table;
pub(crate) mod tier_files;
