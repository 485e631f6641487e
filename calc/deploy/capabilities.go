package deploy

// The capabilities an engine build links in by importing their packages,
// as image.Decode decodes the formats whose packages a program imports.
// Each package sets its hook here from its init; the browser's light
// engine leaves a capability out by not importing it, and the linker then
// drops its code and everything only it reaches.

// Simulator runs the simulation sp asks for on d and adds its section,
// and its warnings, to r; it returns the work its runs did, in work units
// (what estimateWork predicts). Package calc/simulate sets it; nil: this
// build has no simulator, and a request with simulate is refused on that
// field (NoSimulatorMessage).
var Simulator func(d *Deployment, r *Report, a Ask, sp *SimPlan) (work float64)
