package calc

import (
	"github.com/modelrefs/throughput/calc/deploy"
	"github.com/modelrefs/throughput/calc/evaluate"
	"github.com/modelrefs/throughput/calc/release"
	"github.com/modelrefs/throughput/calc/spec"
)

// The contract's types. Package calc/spec defines them (calc/release the
// engine profiles, calc/deploy the work estimate), and calc names them so
// that users and doors write calc.Request and calc.Report; each type's doc
// is its defining package's.
type (
	AutoscaleOptions    = spec.AutoscaleOptions
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
	Efficiencies        = spec.Efficiencies
	EnergyReport        = spec.EnergyReport
	Engine              = spec.Engine
	EngineDefaults      = spec.EngineDefaults
	EngineVersion       = spec.EngineVersion
	Errors              = spec.Errors
	FeaturesReport      = spec.FeaturesReport
	FieldError          = spec.FieldError
	FieldSpec           = spec.FieldSpec
	Fix                 = spec.Fix
	FleetCheck          = spec.FleetCheck
	FleetHour           = spec.FleetHour
	FleetInterval       = spec.FleetInterval
	FleetOutcome        = spec.FleetOutcome
	FleetReport         = spec.FleetReport
	FleetSizing         = spec.FleetSizing
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
	MemorySources       = spec.MemorySources
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
	ServingReport       = spec.ServingReport
	SessionWorkload     = spec.SessionWorkload
	SessionsReport      = spec.SessionsReport
	PrefixCachingReport = spec.PrefixCachingReport
	RateCurve           = spec.RateCurve
	Report              = spec.Report
	Request             = spec.Request
	SLO                 = spec.SLO
	SimSweepOptions     = spec.SimSweepOptions
	SimSessionsReport   = spec.SimSessionsReport
	SimSweepPoint       = spec.SimSweepPoint
	SimTurnReport       = spec.SimTurnReport
	SimTimelinePoint    = spec.SimTimelinePoint
	SimulateOptions     = spec.SimulateOptions
	SimulationReport    = spec.SimulationReport
	SimulationSweep     = spec.SimulationSweep
	SpeculativeConfig   = spec.SpeculativeConfig
	SpeculativeReport   = spec.SpeculativeReport
	StartupLog          = spec.StartupLog
	StartupLogReport    = spec.StartupLogReport
	SweepOptions        = spec.SweepOptions
	SweepPoint          = spec.SweepPoint
	TraceOptions        = spec.TraceOptions
	TrafficInterval     = spec.TrafficInterval
	TrafficReport       = spec.TrafficReport
	Warning             = spec.Warning
	WorkEstimate        = evaluate.WorkEstimate
	Workload            = spec.Workload
)

// The calibration imports' and profile's types (calc/spec calibration.go),
// in a block of their own.
type (
	BenchmarkImport         = spec.BenchmarkImport
	CalibrationProfile      = spec.CalibrationProfile
	CalibrationServingPoint = spec.CalibrationServingPoint
	FigureLabels            = spec.FigureLabels
	ProfilePoint            = spec.ProfilePoint
	ProfileTerms            = spec.ProfileTerms
	ServingFigures          = spec.ServingFigures
	ServingMeasurement      = spec.ServingMeasurement
)

// The contract's defaults and bounds (the field table, Fields, states each
// field's; these are the constants it is built from).
const (
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
	DefaultWorkBudget           = evaluate.DefaultWorkBudget
	MaxPlanCandidates           = spec.MaxPlanCandidates
	MaxPlanLimit                = spec.MaxPlanLimit
	MaxRequestBytes             = evaluate.MaxRequestBytes
	MaxCalibrateBytes           = evaluate.MaxCalibrateBytes
	MaxImportBytes              = spec.MaxImportBytes
	MaxProfilePoints            = spec.MaxProfilePoints
	CalibrationProfileVersion   = spec.CalibrationProfileVersion
	MaxSimSweepPoints           = spec.MaxSimSweepPoints
	MaxSimulatedRequests        = spec.MaxSimulatedRequests
	MaxStartupLogBytes          = spec.MaxStartupLogBytes
	MaxSweepPoints              = spec.MaxSweepPoints
	MaxTimelinePoints           = spec.MaxTimelinePoints
	MaxVerifyTop                = spec.MaxVerifyTop
	NoSimulatorMessage          = evaluate.NoSimulatorMessage
	SGLangV03                   = release.SGLangV03
	SGLangV04                   = release.SGLangV04
	SGLangVersion               = release.SGLangVersion
	Version                     = deploy.Version
)

// The contract's tables: the field table, its enums, and the error every
// validation error wraps.
var (
	Arrivals             = spec.Arrivals
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
