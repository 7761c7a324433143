// Linked in front of app.js when the WebAssembly is split (web/CMakeLists.txt): index.html then fetches
// app.deferred.wasm after the first frame.
Module['gpucostSplit'] = true;
