//! Nobody sees under a stack they did not build, in views or events.
