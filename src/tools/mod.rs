//! The binary's tools, outside the library the server runs: the command
//! line (`cli`), the load generator (`bench`), bots against bots (`arena`)
//! and the storage report (`storage`).

pub mod arena;
pub mod bench;
pub mod cli;
pub mod storage;
