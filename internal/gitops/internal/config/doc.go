// Package config reads git configuration as git does: the syntax of
// Documentation/git-config.txt ("CONFIGURATION FILE": sections,
// subsections, values, comments; parse.go), its "FILES"
// in their order of priority, "Includes" and "Conditional includes",
// the GIT_CONFIG_COUNT and GIT_CONFIG_PARAMETERS variables of
// "ENVIRONMENT", and its boolean and integer values ("Values").
//
// Errors read as sentences without a package prefix: they reach the
// user unchanged.
package config
