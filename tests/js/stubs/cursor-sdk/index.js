// Not @cursor/sdk: see package.json. The oracle test never loads the adapter's server code.
throw new Error("@cursor/sdk is stubbed out in agentlines' dev dependencies (tests/js/stubs/cursor-sdk)");
