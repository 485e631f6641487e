package calc

import (
	"github.com/modelrefs/throughput/calc/deploy"
	"github.com/modelrefs/throughput/calc/release"
	"github.com/modelrefs/throughput/hardware"
	"github.com/modelrefs/throughput/internal/units"
)

// The contract's types. The engine room's packages define them and calc
// names them, so that every door and user writes calc.Request and
// calc.Report.
type (
	ActivationTerms     = deploy.ActivationTerms
	Band                = deploy.Band
	BatchCeiling        = deploy.BatchCeiling
	BenchResult         = deploy.BenchResult
	BestReport          = deploy.BestReport
	Calibration         = deploy.Calibration
	CalibrationFitPoint = deploy.CalibrationFitPoint
	CalibrationPoint    = deploy.CalibrationPoint
	CalibrationReport   = deploy.CalibrationReport
	Config              = deploy.Config
	CostReport          = deploy.CostReport
	DecodeReport        = deploy.DecodeReport
	Deployment          = deploy.Deployment
	Efficiencies        = release.Efficiencies
	Engine              = release.Engine
	EngineDefaults      = release.EngineDefaults
	EngineVersion       = release.EngineVersion
	Errors              = deploy.Errors
	FeaturesReport      = deploy.FeaturesReport
	FieldError          = deploy.FieldError
	FieldSpec           = deploy.FieldSpec
	Fix                 = deploy.Fix
	HardwareInfo        = deploy.HardwareInfo
	HardwareRef         = deploy.HardwareRef
	KVCacheReport       = deploy.KVCacheReport
	KVGroup             = deploy.KVGroup
	KVOffload           = deploy.KVOffload
	KVOffloadReport     = deploy.KVOffloadReport
	LatencySummary      = deploy.LatencySummary
	LengthDistribution  = deploy.LengthDistribution
	LoRAConfig          = deploy.LoRAConfig
	LoRAReport          = deploy.LoRAReport
	LoggedTerm          = deploy.LoggedTerm
	MemoryReport        = deploy.MemoryReport
	ModelInfo           = deploy.ModelInfo
	ParallelReport      = deploy.ParallelReport
	PlanConstraints     = deploy.PlanConstraints
	PlanDeployment      = deploy.PlanDeployment
	PlanPoint           = deploy.PlanPoint
	PlanRejection       = deploy.PlanRejection
	PlanReport          = deploy.PlanReport
	PlanRequest         = deploy.PlanRequest
	PlanSLO             = deploy.PlanSLO
	PlanSearch          = deploy.PlanSearch
	PlanSimulated       = deploy.PlanSimulated
	PlanVerify          = deploy.PlanVerify
	PlanWorkload        = deploy.PlanWorkload
	PreemptionReport    = deploy.PreemptionReport
	PrefillReport       = deploy.PrefillReport
	PrefixCachingReport = deploy.PrefixCachingReport
	Report              = deploy.Report
	Request             = deploy.Request
	SLO                 = deploy.SLO
	SimSweepOptions     = deploy.SimSweepOptions
	SimSweepPoint       = deploy.SimSweepPoint
	SimTimelinePoint    = deploy.SimTimelinePoint
	SimulateOptions     = deploy.SimulateOptions
	SimulationReport    = deploy.SimulationReport
	SimulationSweep     = deploy.SimulationSweep
	SpeculativeConfig   = deploy.SpeculativeConfig
	SpeculativeReport   = deploy.SpeculativeReport
	StartupLog          = deploy.StartupLog
	StartupLogReport    = deploy.StartupLogReport
	StepCost            = deploy.StepCost
	StepLoad            = deploy.StepLoad
	SweepOptions        = deploy.SweepOptions
	SweepPoint          = deploy.SweepPoint
	Warning             = deploy.Warning
	WorkEstimate        = deploy.WorkEstimate
	Workload            = deploy.Workload
)

// The contract's defaults and bounds.
const (
	BandCoverage                = deploy.BandCoverage
	BandFromStep                = deploy.BandFromStep
	BandKV                      = deploy.BandKV
	BandOtherEngines            = deploy.BandOtherEngines
	BandOutside                 = deploy.BandOutside
	BandOutsideEngine           = deploy.BandOutsideEngine
	BandOutsideGPU              = deploy.BandOutsideGPU
	BandOutsideRegime           = deploy.BandOutsideRegime
	BandOutsideTP               = deploy.BandOutsideTP
	BandStep                    = deploy.BandStep
	BandTTFT                    = deploy.BandTTFT
	DefaultBlockSize            = release.DefaultBlockSize
	DefaultEngine               = release.DefaultEngine
	DefaultGPUMemoryUtilization = release.DefaultGPUMemoryUtilization
	DefaultInputTokens          = deploy.DefaultInputTokens
	DefaultMaxNumBatchedTokens  = release.DefaultMaxNumBatchedTokens
	DefaultMaxNumSeqs           = release.DefaultMaxNumSeqs
	DefaultOutputTokens         = deploy.DefaultOutputTokens
	DefaultPlanLimit            = deploy.DefaultPlanLimit
	DefaultSimSweepPoints       = deploy.DefaultSimSweepPoints
	DefaultSimSweepRequests     = deploy.DefaultSimSweepRequests
	DefaultSimulatedRequests    = deploy.DefaultSimulatedRequests
	DefaultSweepPoints          = deploy.DefaultSweepPoints
	DefaultTimelinePoints       = deploy.DefaultTimelinePoints
	DefaultVerifyRequests       = deploy.DefaultVerifyRequests
	DefaultVerifyTop            = deploy.DefaultVerifyTop
	DefaultWorkBudget           = deploy.DefaultWorkBudget
	FullEngine                  = deploy.FullEngine
	MaxPlanCandidates           = deploy.MaxPlanCandidates
	MaxPlanLimit                = deploy.MaxPlanLimit
	MaxRequestBytes             = deploy.MaxRequestBytes
	MaxSimSweepPoints           = deploy.MaxSimSweepPoints
	MaxSimulatedRequests        = deploy.MaxSimulatedRequests
	MaxStartupLogBytes          = deploy.MaxStartupLogBytes
	MaxSweepPoints              = deploy.MaxSweepPoints
	MaxTimelinePoints           = deploy.MaxTimelinePoints
	MaxVerifyTop                = deploy.MaxVerifyTop
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
	Arrivals             = deploy.Arrivals
	BandBatches          = deploy.BandBatches
	BandFamilies         = deploy.BandFamilies
	BandGPUs             = deploy.BandGPUs
	BandReleases         = deploy.BandReleases
	BandTPs              = deploy.BandTPs
	DefaultEngineVersion = release.DefaultEngineVersion
	Distributions        = deploy.Distributions
	Dtypes               = deploy.Dtypes
	ErrInvalidRequest    = deploy.ErrInvalidRequest
	Fields               = deploy.Fields
	KVCacheDtypes        = deploy.KVCacheDtypes
	LoRAModules          = deploy.LoRAModules
	PlanPrecisions       = deploy.PlanPrecisions
	PlanStats            = deploy.PlanStats
	SpecMethods          = deploy.SpecMethods
)

func AllEngineVersions() []string                     { return release.AllEngineVersions() }
func BandEngines() []string                           { return deploy.BandEngines() }
func BandIndex(e int, f int, x int, t int, g int) int { return deploy.BandIndex(e, f, x, t, g) }
func BatchBucket(b int) string                        { return deploy.BatchBucket(b) }
func BlockSizes() []int                               { return deploy.BlockSizes() }
func CUDAGraphCaptures(maxNumSeqs int) int            { return release.CUDAGraphCaptures(maxNumSeqs) }
func CUDAGraphEstimate(maxNumSeqs int, layers int) units.Bytes {
	return release.CUDAGraphEstimate(maxNumSeqs, layers)
}
func EngineNames() []string                                        { return release.EngineNames() }
func EngineVersions() []string                                     { return release.EngineVersions() }
func Engines() []*release.Engine                                   { return release.Engines() }
func EstimateWork(req deploy.Request) (deploy.WorkEstimate, error) { return deploy.EstimateWork(req) }
func Evaluate(req deploy.Request) (deploy.Report, error)           { return deploy.Evaluate(req) }
func EvaluateWithBudget(req deploy.Request, budget float64) (deploy.Report, error) {
	return deploy.EvaluateWithBudget(req, budget)
}
func Float(v float64) *float64                                  { return deploy.Float(v) }
func GPUClass(a *hardware.Accelerator) string                   { return deploy.GPUClass(a) }
func Int(v int) *int                                            { return deploy.Int(v) }
func LookupEngine(name string) (*release.Engine, bool)          { return release.LookupEngine(name) }
func ParseBenchServe(text string) ([]deploy.BenchResult, error) { return deploy.ParseBenchServe(text) }
func ParsePlanRequest(data []byte) (deploy.PlanRequest, error)  { return deploy.ParsePlanRequest(data) }
func ParseRequest(data []byte) (deploy.Request, error)          { return deploy.ParseRequest(data) }
func ParseStartupLog(text string) (deploy.StartupLog, error)    { return deploy.ParseStartupLog(text) }
func Plan(req deploy.PlanRequest) (deploy.PlanReport, error)    { return deploy.Plan(req) }
func ReleaseClass(engine string, version string) string         { return deploy.ReleaseClass(engine, version) }
func Resolve(req deploy.Request) (*deploy.Deployment, error)    { return deploy.Resolve(req) }
func SimulatorBuilt() bool                                      { return deploy.SimulatorBuilt() }
func TPBucket(tp int) string                                    { return deploy.TPBucket(tp) }
func TRTLLMVersions() []string                                  { return release.TRTLLMVersions() }
func V1ForwardBytes(x deploy.ActivationTerms) float64           { return deploy.V1ForwardBytes(x) }
func Validate(req deploy.Request) error                         { return deploy.Validate(req) }
