//! Swiss pairing.
pub mod blossom;
