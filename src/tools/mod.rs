//! The binary's tools, outside the library the server runs: the command
//! line (`cli`), the load generator (`bench`), bots against bots (`arena`)
//! the storage report (`storage`) and the records' checks (`records`:
//! `verify --key`, `log monitor`).

pub mod arena;
pub mod bench;
pub mod cli;
pub mod records;
pub mod storage;
