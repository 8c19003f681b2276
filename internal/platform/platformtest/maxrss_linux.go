package platformtest

// maxrssUnit: Linux reports ru_maxrss in kilobytes.
const maxrssUnit = 1024
