package main

import (
	"bytes"
	"debug/pe"
	"encoding/binary"
	"testing"
)

// cString reads the NUL-terminated string at rva of the image's one section.
func cString(t *testing.T, sec []byte, base, rva uint32) string {
	t.Helper()
	off := int(rva - base)
	if off < 0 || off >= len(sec) {
		t.Fatalf("rva %#x outside the section", rva)
	}
	end := bytes.IndexByte(sec[off:], 0)
	if end < 0 {
		t.Fatalf("string at %#x not terminated", rva)
	}
	return string(sec[off : off+end])
}

// TestForwarder parses the DLL back: a PE32+ x86-64 DLL whose export directory names
// bcryptprimitives.dll and exports ProcessPrng as a forwarder to
// advapi32.SystemFunction036, which is what lets Go 1.26 programs start under wine 8.
func TestForwarder(t *testing.T) {
	f, err := pe.NewFile(bytes.NewReader(build()))
	if err != nil {
		t.Fatal(err)
	}
	if f.Machine != pe.IMAGE_FILE_MACHINE_AMD64 || f.Characteristics&pe.IMAGE_FILE_DLL == 0 {
		t.Fatalf("machine %#x, characteristics %#x: want an x86-64 DLL", f.Machine, f.Characteristics)
	}
	oh, ok := f.OptionalHeader.(*pe.OptionalHeader64)
	if !ok {
		t.Fatalf("optional header %T, want PE32+", f.OptionalHeader)
	}
	dir := oh.DataDirectory[pe.IMAGE_DIRECTORY_ENTRY_EXPORT]
	if len(f.Sections) != 1 || dir.VirtualAddress != f.Sections[0].VirtualAddress {
		t.Fatalf("%d sections, export directory at %#x", len(f.Sections), dir.VirtualAddress)
	}
	sec, err := f.Sections[0].Data()
	if err != nil {
		t.Fatal(err)
	}
	base := f.Sections[0].VirtualAddress
	u32 := func(rva uint32) uint32 { return binary.LittleEndian.Uint32(sec[rva-base:]) }
	name := cString(t, sec, base, u32(dir.VirtualAddress+12))
	nFuncs, nNames := u32(dir.VirtualAddress+20), u32(dir.VirtualAddress+24)
	funcs, names, ords := u32(dir.VirtualAddress+28), u32(dir.VirtualAddress+32), u32(dir.VirtualAddress+36)
	if name != "bcryptprimitives.dll" || nFuncs != 1 || nNames != 1 {
		t.Fatalf("name %q, %d functions, %d names", name, nFuncs, nNames)
	}
	if got := cString(t, sec, base, u32(names)); got != "ProcessPrng" {
		t.Fatalf("export %q, want ProcessPrng", got)
	}
	if o := binary.LittleEndian.Uint16(sec[ords-base:]); o != 0 {
		t.Fatalf("ordinal index %d, want 0", o)
	}
	fn := u32(funcs)
	if fn < dir.VirtualAddress || fn >= dir.VirtualAddress+dir.Size {
		t.Fatalf("function rva %#x outside the export directory [%#x, %#x): code, not a forwarder", fn, dir.VirtualAddress, dir.VirtualAddress+dir.Size)
	}
	if got := cString(t, sec, base, fn); got != "advapi32.SystemFunction036" {
		t.Fatalf("forwards to %q", got)
	}
	if len(build()) != int(f.Sections[0].Offset+f.Sections[0].Size) {
		t.Fatal("the file has bytes past its one section")
	}
}
