package hardware_test

import (
	"errors"
	"fmt"

	"github.com/modelrefs/throughput/hardware"
)

func ExampleLookup() {
	a, err := hardware.Lookup("NVIDIA GeForce RTX 4090")
	if err != nil {
		panic(err)
	}
	fmt.Println(a.ID, a.MemoryBytes.GiB(), "GiB,", a.MemoryBandwidthBytesPerS/1e9, "GB/s,", a.PeakFLOPS.For(hardware.BF16)/1e12, "TFLOPS bf16")

	a, _ = hardware.Lookup("nvidia h100 80gb hbm3") // as nvidia-smi prints it
	fmt.Println(a.ID, a.Interconnect.Name)

	_, err = hardware.Lookup("A100")
	fmt.Println(errors.Is(err, hardware.ErrAmbiguous), err)

	_, err = hardware.Lookup("mi300")
	fmt.Println(errors.Is(err, hardware.ErrUnknown), err)
	// Output:
	// rtx-4090 24 GiB, 1008 GB/s, 165.2 TFLOPS bf16
	// h100-sxm-80gb NVLink 4 (NVSwitch)
	// true ambiguous hardware "A100"; candidates: "a100-pcie-40gb", "a100-pcie-80gb", "a100-sxm-40gb", "a100-sxm-80gb"
	// true unknown hardware "mi300"; did you mean "mi300x"?
}

func ExampleAccelerator_Validate() {
	a := hardware.Accelerator{
		MemoryBytes:              24 * hardware.GiB,
		MemoryBandwidthBytesPerS: 0,
		PeakFLOPS:                hardware.PeakFLOPS{BF16: 100e12},
	}
	fmt.Println(a.Validate())
	a.MemoryBandwidthBytesPerS = 500e9
	fmt.Println(a.Validate(), a.ID)
	// Output:
	// memory_bandwidth_bytes_per_s: must be greater than 0 (got 0)
	// <nil> custom
}
