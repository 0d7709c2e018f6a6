/**
 * Loaded with `node --import ./bench/production-mode.ts` by every benchmark script (package.json):
 * React (and anything else that reads NODE_ENV when first loaded) must see production before any
 * module of the platform loads it. A statement in a benchmark module ran too late: the CommonJS
 * packages an ES module graph imports are loaded with the graph, before any module's body runs, and
 * bench/lib.ts imports the worker, whose e-mail templates load react-dom/server; every page the
 * benchmarks rendered then used React's development build (bench/lib.ts's startBench now refuses to
 * measure so). The Dockerfile runs with NODE_ENV=production.
 */
process.env.NODE_ENV ??= "production";
