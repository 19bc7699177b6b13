//! What the screen tests share: an app on the embedded content with keys and its rendered
//! screen, the simulator's screen driven synchronously, and a lab's failing run.

pub mod lab;
pub mod screen;
pub mod sim_harness;
