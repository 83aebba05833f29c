mod command_buffer;
mod graph;
mod launch;
