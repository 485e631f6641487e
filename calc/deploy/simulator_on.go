//go:build !nosim

package deploy

// FullEngine is true in every build but the browser's light engine (-tags
// nosim), which leaves out the simulator, the start-up log reader, the
// error bands and the calibration fit, and so never fills
// Report.Simulation, StartupLog, Bands or Calibration. A constant, so that
// code that writes those fields (the JavaScript bridge's generated report
// writer) drops out of the light engine with them. The deployment's
// DeepSeek-V4 branches test it too: the light engine does not import
// package models/deepseekv4, so it never holds a DeepSeek-V4 model, and
// they drop out of it.
const FullEngine = true
