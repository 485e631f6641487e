# Local workerd config for Throughput's worker: the API (entry.mjs, one Go
# instance per isolate) and the built site (build/site/, ./build.sh build) as
# static files. ./build.sh worker copies it into build/worker/ beside the
# embedded files and overrides the socket address and the site's path on the
# command line:
#   workerd serve workerd.capnp --socket-addr http=127.0.0.1:PORT --directory-path site=/abs/build/site
# with THROUGHPUT_HUB_URL (and THROUGHPUT_HUB_TOKEN) in its environment for
# the Hub (./build.sh worker sets https://huggingface.co unless given one).
using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [
    (name = "api", worker = .api),
    (name = "site", disk = (path = "site", writable = false)),
    # The worker's outbound fetches (the Hugging Face Hub): the public
    # internet, and loopback, where the tests run their stand-in Hub.
    (name = "internet", network = (allow = ["public", "local"], tlsOptions = (trustBrowserCas = true))),
  ],
  sockets = [(name = "http", address = "127.0.0.1:8787", http = (), service = "api")],
);

const api :Workerd.Worker = (
  modules = [
    (name = "entry.mjs", esModule = embed "entry.mjs"),
    (name = "request.mjs", esModule = embed "request.mjs"),
    (name = "wasm_exec.js", esModule = embed "wasm_exec.js"),
    (name = "app.wasm", wasm = embed "app.wasm"),
  ],
  bindings = [
    (name = "ASSETS", service = "site"),
    # The Hub's base URL (unset: ids outside the catalog are not fetched)
    # and a token for gated models, from workerd's environment.
    (name = "THROUGHPUT_HUB_URL", fromEnvironment = "THROUGHPUT_HUB_URL"),
    (name = "THROUGHPUT_HUB_TOKEN", fromEnvironment = "THROUGHPUT_HUB_TOKEN"),
    # "1" turns on the recovery tests' hooks (wasm/worker/hooks.go:
    # POST /__test/exit and /__test/oom end the Go program); unset: off.
    (name = "THROUGHPUT_TEST_HOOKS", fromEnvironment = "THROUGHPUT_TEST_HOOKS"),
  ],
  compatibilityDate = "2025-09-01",
);
