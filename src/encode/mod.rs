//! Encodings for learning: action ids and observation tensors.

pub mod actions;
pub mod observation;

pub use actions::ActionLayout;
