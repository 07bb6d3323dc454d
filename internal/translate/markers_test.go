package translate

import "testing"

func TestMarkerAt(t *testing.T) {
	type want struct {
		kind markerKind
		fit  markerFit
	}
	var none want
	for _, tc := range []struct {
		line string
		want want
	}{
		// SEARCH/REPLACE: five to nine characters and an optional ">"
		// are the reference's own; case and spacing are near misses;
		// other runs are too far to read.
		{"<<<<<<< SEARCH", want{mkSearch, fitExact}},
		{"<<<<< SEARCH>", want{mkSearch, fitExact}},
		{"<<<<<<<<< SEARCH", want{mkSearch, fitExact}},
		{"<<<<<<<SEARCH", want{mkSearch, fitNear}},
		{"<<<<<<< search", want{mkSearch, fitNear}},
		{"<<<<<<<  Search>", want{mkSearch, fitNear}},
		{"<<<<<<<\tSEARCH", want{mkSearch, fitNear}},
		{"<<<< SEARCH", want{mkSearch, fitFar}},
		{"<<< search", want{mkSearch, fitFar}},
		{"<<<<<<<<<< SEARCH", want{mkSearch, fitFar}},
		{"<<<<<<< SEARCH>>>", want{mkSearch, fitFar}},
		{">>>>>>> REPLACE", want{mkReplace, fitExact}},
		{">>>>> REPLACE", want{mkReplace, fitExact}},
		{">>>>>>>REPLACE", want{mkReplace, fitNear}},
		{">>>>>>> replace", want{mkReplace, fitNear}},
		{">>>>>>>>>  Replace", want{mkReplace, fitNear}},
		{">>>> REPLACE", want{mkReplace, fitFar}},
		{">>>>>>>>>>>> REPLACE", want{mkReplace, fitFar}},
		// edit-v2 takes exactly seven.
		{"<<<<<<< EDIT", want{mkEditStart, fitExact}},
		{"<<<<<< EDIT", want{mkEditStart, fitNear}},
		{"<<<<<<<<< edit", want{mkEditStart, fitNear}},
		{"<<<<<<<EDIT", want{mkEditStart, fitNear}},
		{"<<<< EDIT", want{mkEditStart, fitFar}},
		// FIUP: any brackets around the keyword.
		{"<<<FIUP>>>", want{mkFiupStart, fitExact}},
		{"<<<fiup>>>", want{mkFiupStart, fitNear}},
		{"<<<FIUP>>", want{mkFiupStart, fitNear}},
		{"<<< FIUP >>>", want{mkFiupStart, fitNear}},
		{"<FIUP>", want{mkFiupStart, fitNear}},
		{"<<<<FIUP", want{mkFiupStart, fitNear}},
		{"<<<END>>>", want{mkFiupEnd, fitExact}},
		{"<<END>>", want{mkFiupEnd, fitNear}},
		{"<<<End>>>>", want{mkFiupEnd, fitNear}},
		// udiffx: the reader takes any case; other spellings it cannot.
		{"<FILE_CHANGES>", want{mkUdxEnvelope, fitExact}},
		{"</FILE_CHANGES>", want{mkUdxEnvelope, fitExact}},
		{`<FILE_PATCH file_path="a.py">`, want{mkUdxDirective, fitExact}},
		{`<FILE_DELETE file_path="a"/>`, want{mkUdxDirective, fitExact}},
		{"</FILE_NEW>", want{mkUdxDirective, fitExact}},
		{"<file_changes>", want{mkUdxEnvelope, fitNear}},
		{`<File_Patch file_path="a">`, want{mkUdxDirective, fitNear}},
		{"<FILE-CHANGES>", want{mkUdxEnvelope, fitFar}},
		{"<FILECHANGES>", want{mkUdxEnvelope, fitFar}},
		{"<FILE CHANGES>", want{mkUdxEnvelope, fitFar}},
		{"< FILE_CHANGES>", want{mkUdxEnvelope, fitFar}},
		{"<FILE_CHANGE>", want{mkUdxEnvelope, fitFar}},
		{`<FILE-PATCH file_path="a">`, want{mkUdxDirective, fitFar}},
		// apply-patch: three stars and a space, in the prompt's case.
		{"*** Begin Patch", want{mkApBegin, fitExact}},
		{"*** End Patch", want{mkApEnd, fitExact}},
		{"*** Update File: a.py", want{mkApUpdate, fitExact}},
		{"*** Move to: b.py", want{mkApMove, fitExact}},
		{"*** begin patch", want{mkApBegin, fitNear}},
		{"***Begin Patch", want{mkApBegin, fitNear}},
		{"*** BeginPatch", want{mkApBegin, fitNear}},
		{"*** Begin Patch ***", want{mkApBegin, fitNear}},
		{"***** End Patch", want{mkApEnd, fitNear}},
		{"*** update file: a.py", want{mkApUpdate, fitNear}},
		{"***Add File: a.py", want{mkApAdd, fitNear}},
		{"*** Delete File a.py", want{mkApDelete, fitNear}},
		{"*** Delete File", want{mkApDelete, fitNear}},

		// What real files and prose hold.
		{"<<<<<<< HEAD", none},
		{"<<<<<<< Updated upstream", none},
		{">>>>>>> feature", none},
		{">>>>>>> replace-all", none},
		{"<<<<<<< search-ui", none},
		{"=======", none},
		{"-------", none},
		{">>>>>>>", none},
		{"<<<<<<< SEARCH here", none},
		{"<<<<<<< SEARCH >", none},
		{">>>>>>> REPLACE>", none},
		{"<<<FIUP>>> x", none},
		{"<<END", none},
		{"<END>", none},
		{"<<<EOF", none},
		{"<<< $x", none},
		{">>> search(x)", none},
		{">>> replace", none},
		{">>>REPLACE", none},
		{">>> for i in x:", none},
		{"<FILE>", none},
		{"<FILE_>", none},
		{"<FILE_NEWS>", none},
		{"<FILES_CHANGES>", none},
		{`<file delete="x">`, none},
		{"<file-new>", none},
		{"**Begin Patch**", none},
		{"** Begin Patch", none},
		{"***", none},
		{"*** End of File", none},
		{"*** Begin Patch now", none},
		{"*** Update Files: a", none},
		{"*** Rename File: a", none},
		{"Search", none},
		{"SEARCH", none},
		{"<", none},
		{"", none},
	} {
		m := markerAt(tc.line)
		if got := (want{m.kind, m.fit}); got != tc.want {
			t.Errorf("markerAt(%q) = %+v, want %+v", tc.line, got, tc.want)
		}
	}
}
