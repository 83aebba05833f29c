mod graph;
mod launch;
