# The baseline: syumai/workers' stock entry (worker.mjs and shim.mjs from
# workers-assets-gen), which starts a new Go instance for every request.
# Used only by scripts/load-worker.mjs for comparison. ./build.sh worker
# copies it into build/worker/stock/.
using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [(name = "api", worker = .api)],
  sockets = [(name = "http", address = "127.0.0.1:8788", http = (), service = "api")],
);

const api :Workerd.Worker = (
  modules = [
    (name = "worker.mjs", esModule = embed "worker.mjs"),
    (name = "shim.mjs", esModule = embed "shim.mjs"),
    (name = "wasm_exec.js", esModule = embed "wasm_exec.js"),
    (name = "app.wasm", wasm = embed "app.wasm"),
  ],
  compatibilityDate = "2025-09-01",
);
