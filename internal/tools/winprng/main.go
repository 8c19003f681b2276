// Command winprng writes bcryptprimitives.dll, a tiny PE32+ DLL for running Go programs
// for Windows under Debian's wine 8 (scripts/windows-smoke.sh). Go ≥ 1.22's runtime gets
// its random bytes from ProcessPrng in bcryptprimitives.dll, which wine 8 lacks, so a
// Go 1.26 program dies at startup there. This DLL has no code at all: its one export,
// ProcessPrng, forwards to advapi32.SystemFunction036 (RtlGenRandom), which wine has and
// which takes the same arguments on x86-64 (buffer, length) and returns nonzero on
// success. It is generated, never committed: a binary in the tree could hold anything.
//
//	go run ./internal/tools/winprng DIR/bcryptprimitives.dll
//
// Put it beside the .exe (the loader looks in the program's directory first).
package main

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
)

// The DLL's one export and where it forwards to.
const (
	dllName   = "bcryptprimitives.dll"
	export    = "ProcessPrng"
	forwardTo = "advapi32.SystemFunction036"
)

// Layout: headers in the first 0x200 bytes of the file, one section holding the export
// directory at RVA 0x1000 (file offset 0x200).
const (
	fileAlign    = 0x200
	sectionAlign = 0x1000
	sectionRVA   = 0x1000
	imageBase    = 0x180000000
	numDataDirs  = 16
	optHeaderLen = 112 + 8*numDataDirs // PE32+ optional header with its data directories
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: winprng OUT.dll")
		os.Exit(2)
	}
	if err := os.WriteFile(os.Args[1], build(), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "winprng:", err)
		os.Exit(1)
	}
}

// exportSection is the export directory (IMAGE_EXPORT_DIRECTORY, winnt.h) and what it
// points at, for a section placed at rva. The function's address points at a string
// inside the directory's own range, which makes it a forwarder ("DLL.Function").
func exportSection(rva uint32) []byte {
	const dirLen = 40
	funcs := rva + dirLen // [1]uint32: the function's RVA
	names := funcs + 4    // [1]uint32: the name's RVA
	ords := names + 4     // [1]uint16: the name's ordinal index
	strs := ords + 2
	dllNameRVA := strs
	exportRVA := dllNameRVA + uint32(len(dllName)+1)
	forwardRVA := exportRVA + uint32(len(export)+1)

	var b bytes.Buffer
	w := func(v any) { _ = binary.Write(&b, binary.LittleEndian, v) }
	w(uint32(0))  // Characteristics
	w(uint32(0))  // TimeDateStamp: 0 keeps the file reproducible
	w(uint16(0))  // MajorVersion
	w(uint16(0))  // MinorVersion
	w(dllNameRVA) // Name
	w(uint32(1))  // Base: the first ordinal
	w(uint32(1))  // NumberOfFunctions
	w(uint32(1))  // NumberOfNames
	w(funcs)      // AddressOfFunctions
	w(names)      // AddressOfNames
	w(ords)       // AddressOfNameOrdinals
	w(forwardRVA) // functions[0]: inside the directory, so a forwarder
	w(exportRVA)  // names[0]
	w(uint16(0))  // ordinals[0]
	for _, s := range []string{dllName, export, forwardTo} {
		b.WriteString(s)
		b.WriteByte(0)
	}
	return b.Bytes()
}

func align(n, a int) int { return (n + a - 1) / a * a }

// build returns the whole DLL.
func build() []byte {
	edata := exportSection(sectionRVA)
	rawSize := align(len(edata), fileAlign)
	imageSize := sectionRVA + align(len(edata), sectionAlign)

	var b bytes.Buffer
	w := func(v any) { _ = binary.Write(&b, binary.LittleEndian, v) }

	// DOS header: "MZ", and e_lfanew (at 0x3C) pointing at the PE signature at 0x40.
	dos := make([]byte, 0x40)
	copy(dos, "MZ")
	binary.LittleEndian.PutUint32(dos[0x3C:], 0x40)
	b.Write(dos)
	b.WriteString("PE\x00\x00")

	// COFF file header.
	w(uint16(0x8664))       // Machine: x86-64
	w(uint16(1))            // NumberOfSections
	w(uint32(0))            // TimeDateStamp
	w(uint32(0))            // PointerToSymbolTable
	w(uint32(0))            // NumberOfSymbols
	w(uint16(optHeaderLen)) // SizeOfOptionalHeader
	w(uint16(0x2022))       // EXECUTABLE_IMAGE | LARGE_ADDRESS_AWARE | DLL

	// Optional header, PE32+.
	w(uint16(0x20B))        // Magic
	w(uint8(14))            // MajorLinkerVersion
	w(uint8(0))             // MinorLinkerVersion
	w(uint32(0))            // SizeOfCode: there is none
	w(uint32(rawSize))      // SizeOfInitializedData
	w(uint32(0))            // SizeOfUninitializedData
	w(uint32(0))            // AddressOfEntryPoint: none (no DllMain)
	w(uint32(sectionRVA))   // BaseOfCode
	w(uint64(imageBase))    // ImageBase
	w(uint32(sectionAlign)) // SectionAlignment
	w(uint32(fileAlign))    // FileAlignment
	w(uint16(6))            // MajorOperatingSystemVersion
	w(uint16(0))            // MinorOperatingSystemVersion
	w(uint16(0))            // MajorImageVersion
	w(uint16(0))            // MinorImageVersion
	w(uint16(6))            // MajorSubsystemVersion
	w(uint16(0))            // MinorSubsystemVersion
	w(uint32(0))            // Win32VersionValue
	w(uint32(imageSize))    // SizeOfImage
	w(uint32(fileAlign))    // SizeOfHeaders
	w(uint32(0))            // CheckSum
	w(uint16(3))            // Subsystem: console
	w(uint16(0x0100))       // DllCharacteristics: NX_COMPAT (nothing to relocate)
	w(uint64(0x100000))     // SizeOfStackReserve
	w(uint64(0x1000))       // SizeOfStackCommit
	w(uint64(0x100000))     // SizeOfHeapReserve
	w(uint64(0x1000))       // SizeOfHeapCommit
	w(uint32(0))            // LoaderFlags
	w(uint32(numDataDirs))  // NumberOfRvaAndSizes
	w(uint32(sectionRVA))   // DataDirectory[EXPORT].VirtualAddress
	w(uint32(len(edata)))   // DataDirectory[EXPORT].Size: covers the forwarder string
	b.Write(make([]byte, 8*(numDataDirs-1)))

	// Section header.
	var name [8]byte
	copy(name[:], ".edata")
	b.Write(name[:])
	w(uint32(len(edata))) // VirtualSize
	w(uint32(sectionRVA)) // VirtualAddress
	w(uint32(rawSize))    // SizeOfRawData
	w(uint32(fileAlign))  // PointerToRawData
	w(uint32(0))          // PointerToRelocations
	w(uint32(0))          // PointerToLinenumbers
	w(uint16(0))          // NumberOfRelocations
	w(uint16(0))          // NumberOfLinenumbers
	w(uint32(0x40000040)) // INITIALIZED_DATA | MEM_READ

	b.Write(make([]byte, fileAlign-b.Len()))
	b.Write(edata)
	b.Write(make([]byte, rawSize-len(edata)))
	return b.Bytes()
}
