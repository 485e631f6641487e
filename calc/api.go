package calc

import (
	"github.com/modelrefs/throughput/calc/bands"
	"github.com/modelrefs/throughput/calc/deploy"
	"github.com/modelrefs/throughput/calc/planner"
	"github.com/modelrefs/throughput/calc/release"
	"github.com/modelrefs/throughput/calc/spec"
	"github.com/modelrefs/throughput/hardware"
	"github.com/modelrefs/throughput/internal/units"
)

// The contract's types (package calc/spec, and the release profiles of
// package calc/release), named here so that every door and user writes
// calc.Request and calc.Report.
type (
	ActivationTerms     = deploy.ActivationTerms
	Band                = spec.Band
	BatchCeiling        = spec.BatchCeiling
	BenchResult         = spec.BenchResult
	BestReport          = spec.BestReport
	Calibration         = spec.Calibration
	CalibrationFitPoint = spec.CalibrationFitPoint
	CalibrationPoint    = spec.CalibrationPoint
	CalibrationReport   = spec.CalibrationReport
	Config              = spec.Config
	CostReport          = spec.CostReport
	DecodeReport        = spec.DecodeReport
	Deployment          = deploy.Deployment
	Efficiencies        = spec.Efficiencies
	Engine              = spec.Engine
	EngineDefaults      = spec.EngineDefaults
	EngineVersion       = spec.EngineVersion
	Errors              = spec.Errors
	FeaturesReport      = spec.FeaturesReport
	FieldError          = spec.FieldError
	FieldSpec           = spec.FieldSpec
	Fix                 = spec.Fix
	HardwareInfo        = spec.HardwareInfo
	HardwareRef         = spec.HardwareRef
	KVCacheReport       = spec.KVCacheReport
	KVGroup             = spec.KVGroup
	KVOffload           = spec.KVOffload
	KVOffloadReport     = spec.KVOffloadReport
	LatencySummary      = spec.LatencySummary
	LengthDistribution  = spec.LengthDistribution
	LoRAConfig          = spec.LoRAConfig
	LoRAReport          = spec.LoRAReport
	LoggedTerm          = spec.LoggedTerm
	MemoryReport        = spec.MemoryReport
	ModelInfo           = spec.ModelInfo
	ParallelReport      = spec.ParallelReport
	PlanConstraints     = spec.PlanConstraints
	PlanDeployment      = spec.PlanDeployment
	PlanPoint           = spec.PlanPoint
	PlanRejection       = spec.PlanRejection
	PlanReport          = spec.PlanReport
	PlanRequest         = spec.PlanRequest
	PlanSLO             = spec.PlanSLO
	PlanSearch          = spec.PlanSearch
	PlanSimulated       = spec.PlanSimulated
	PlanVerify          = spec.PlanVerify
	PlanWorkload        = spec.PlanWorkload
	PreemptionReport    = spec.PreemptionReport
	PrefillReport       = spec.PrefillReport
	PrefixCachingReport = spec.PrefixCachingReport
	Report              = spec.Report
	Request             = spec.Request
	SLO                 = spec.SLO
	SimSweepOptions     = spec.SimSweepOptions
	SimSweepPoint       = spec.SimSweepPoint
	SimTimelinePoint    = spec.SimTimelinePoint
	SimulateOptions     = spec.SimulateOptions
	SimulationReport    = spec.SimulationReport
	SimulationSweep     = spec.SimulationSweep
	SpeculativeConfig   = spec.SpeculativeConfig
	SpeculativeReport   = spec.SpeculativeReport
	StartupLog          = spec.StartupLog
	StartupLogReport    = spec.StartupLogReport
	StepCost            = deploy.StepCost
	StepLoad            = deploy.StepLoad
	SweepOptions        = spec.SweepOptions
	SweepPoint          = spec.SweepPoint
	Warning             = spec.Warning
	WorkEstimate        = deploy.WorkEstimate
	Workload            = spec.Workload
)

// The contract's defaults and bounds.
const (
	BandCoverage                = bands.Coverage
	BandFromStep                = bands.FromStep
	BandKV                      = bands.KV
	BandOtherEngines            = bands.OtherEngines
	BandOutside                 = bands.Outside
	BandOutsideEngine           = bands.OutsideEngine
	BandOutsideGPU              = bands.OutsideGPU
	BandOutsideRegime           = bands.OutsideRegime
	BandOutsideTP               = bands.OutsideTP
	BandStep                    = bands.Step
	BandTTFT                    = bands.TTFT
	DefaultBlockSize            = spec.DefaultBlockSize
	DefaultEngine               = release.DefaultEngine
	DefaultGPUMemoryUtilization = spec.DefaultGPUMemoryUtilization
	DefaultInputTokens          = spec.DefaultInputTokens
	DefaultMaxNumBatchedTokens  = spec.DefaultMaxNumBatchedTokens
	DefaultMaxNumSeqs           = spec.DefaultMaxNumSeqs
	DefaultOutputTokens         = spec.DefaultOutputTokens
	DefaultPlanLimit            = spec.DefaultPlanLimit
	DefaultSimSweepPoints       = spec.DefaultSimSweepPoints
	DefaultSimSweepRequests     = spec.DefaultSimSweepRequests
	DefaultSimulatedRequests    = spec.DefaultSimulatedRequests
	DefaultSweepPoints          = spec.DefaultSweepPoints
	DefaultTimelinePoints       = spec.DefaultTimelinePoints
	DefaultVerifyRequests       = spec.DefaultVerifyRequests
	DefaultVerifyTop            = spec.DefaultVerifyTop
	DefaultWorkBudget           = deploy.DefaultWorkBudget
	MaxPlanCandidates           = spec.MaxPlanCandidates
	MaxPlanLimit                = spec.MaxPlanLimit
	MaxRequestBytes             = deploy.MaxRequestBytes
	MaxSimSweepPoints           = spec.MaxSimSweepPoints
	MaxSimulatedRequests        = spec.MaxSimulatedRequests
	MaxStartupLogBytes          = spec.MaxStartupLogBytes
	MaxSweepPoints              = spec.MaxSweepPoints
	MaxTimelinePoints           = spec.MaxTimelinePoints
	MaxVerifyTop                = spec.MaxVerifyTop
	NoSimulatorMessage          = deploy.NoSimulatorMessage
	NsPerWorkUnit               = deploy.NsPerWorkUnit
	RequestWorkUnits            = deploy.RequestWorkUnits
	SGLangV03                   = release.SGLangV03
	SGLangV04                   = release.SGLangV04
	SGLangVersion               = release.SGLangVersion
	StepWorkUnits               = deploy.StepWorkUnits
	Version                     = deploy.Version
)

// The contract's tables.
var (
	Arrivals             = spec.Arrivals
	BandBatches          = bands.Batches
	BandFamilies         = bands.Families
	BandGPUs             = bands.GPUs
	BandReleases         = bands.Releases
	BandTPs              = bands.TPs
	DefaultEngineVersion = release.DefaultEngineVersion
	Distributions        = spec.Distributions
	Dtypes               = spec.Dtypes
	ErrInvalidRequest    = spec.ErrInvalidRequest
	Fields               = spec.Fields
	KVCacheDtypes        = spec.KVCacheDtypes
	LoRAModules          = spec.LoRAModules
	PlanPrecisions       = spec.PlanPrecisions
	PlanStats            = spec.PlanStats
	SpecMethods          = spec.SpecMethods
)

func AllEngineVersions() []string                     { return release.AllEngineVersions() }
func BandEngines() []string                           { return bands.Engines() }
func BandIndex(e int, f int, x int, t int, g int) int { return bands.Index(e, f, x, t, g) }
func BatchBucket(b int) string                        { return bands.BatchBucket(b) }
func BlockSizes() []int                               { return spec.BlockSizes() }
func CUDAGraphCaptures(maxNumSeqs int) int            { return release.CUDAGraphCaptures(maxNumSeqs) }
func CUDAGraphEstimate(maxNumSeqs int, layers int) units.Bytes {
	return release.CUDAGraphEstimate(maxNumSeqs, layers)
}
func EngineNames() []string                                      { return release.EngineNames() }
func EngineVersions() []string                                   { return release.EngineVersions() }
func Engines() []*release.Engine                                 { return release.Engines() }
func EstimateWork(req spec.Request) (deploy.WorkEstimate, error) { return deploy.EstimateWork(req) }
func Evaluate(req spec.Request) (spec.Report, error)             { return deploy.Evaluate(req) }
func EvaluateWithBudget(req spec.Request, budget float64) (spec.Report, error) {
	return deploy.EvaluateWithBudget(req, budget)
}
func Float(v float64) *float64                                { return spec.Float(v) }
func GPUClass(a *hardware.Accelerator) string                 { return bands.GPUClass(a) }
func Int(v int) *int                                          { return spec.Int(v) }
func LookupEngine(name string) (*release.Engine, bool)        { return release.LookupEngine(name) }
func ParseBenchServe(text string) ([]spec.BenchResult, error) { return deploy.ParseBenchServe(text) }
func ParsePlanRequest(data []byte) (spec.PlanRequest, error)  { return planner.ParseRequest(data) }
func ParseRequest(data []byte) (spec.Request, error)          { return deploy.ParseRequest(data) }
func ParseStartupLog(text string) (spec.StartupLog, error)    { return deploy.ParseStartupLog(text) }
func Plan(req spec.PlanRequest) (spec.PlanReport, error)      { return planner.Plan(req) }
func ReleaseClass(engine string, version string) string       { return bands.ReleaseClass(engine, version) }
func Resolve(req spec.Request) (*deploy.Deployment, error)    { return deploy.Resolve(req) }
func SimulatorBuilt() bool                                    { return deploy.SimulatorBuilt() }
func TPBucket(tp int) string                                  { return bands.TPBucket(tp) }
func TRTLLMVersions() []string                                { return release.TRTLLMVersions() }
func V1ForwardBytes(x deploy.ActivationTerms) float64         { return deploy.V1ForwardBytes(x) }
func Validate(req spec.Request) error                         { return deploy.Validate(req) }
