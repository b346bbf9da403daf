package io.commitflow.generate;

import io.commitflow.event.TestEvents;
import io.commitflow.git.DiffedCommit;
import io.commitflow.git.FileChange;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class SubjectLengthTest {

    private static FileChange modify(String path, int added, int deleted) {
        return new FileChange("MODIFY", path, path, false, added, deleted, 0, "100644", "100644");
    }

    private static DiffedCommit diff(FileChange... files) {
        return DiffedCommit.of(TestEvents.commit("r", "a".repeat(40)), List.of(files), files.length, "", "", "mirror", null);
    }

    @Test
    void namesTheMainFileWhenTooShort() {
        DiffedCommit d = diff(modify("src/main/java/org/apache/commons/lang3/StringUtils.java", 12, 3),
                modify("src/changes/changes.xml", 1, 0));

        assertThat(SubjectLength.fit("Javadoc", d)).isEqualTo("Javadoc in StringUtils");
        assertThat(SubjectLength.fit("Fix typo", d)).isEqualTo("Fix typo in StringUtils");
        DiffedCommit pair = diff(modify("src/main/java/org/apache/commons/lang3/tuple/Pair.java", 2, 2));
        assertThat(SubjectLength.fit("Javadoc", pair)).as("'Javadoc in Pair' is too short: the file's whole name, "
                + "not its path").isEqualTo("Javadoc in Pair.java");
    }

    @Test
    void aHistoryOfShortSubjectsKeepsThemShortDownToItsFloor() {
        DiffedCommit d = diff(modify("src/main/java/org/apache/commons/lang3/StringUtils.java", 12, 3));
        int floor = SubjectLength.SHORT_FLOOR;

        assertThat(SubjectLength.fit(Subject.parse("Javadoc"), d, floor).render()).isEqualTo("Javadoc");
        assertThat(SubjectLength.fit(Subject.parse("Fix CI"), d, floor).render()).isEqualTo("Fix CI");
        assertThat(SubjectLength.fit(Subject.parse("Typo"), d, floor).render()).as("below the floor: padded as ever")
                .isEqualTo("Typo in StringUtils");
        assertThat(SubjectLength.fit(Subject.parse("Javadoc"), d, SubjectLength.MIN).render())
                .isEqualTo("Javadoc in StringUtils");
    }

    @Test
    void namesAProjectDocumentWithoutItsExtension() {
        DiffedCommit d = diff(modify("CHANGELOG.md", 40, 0), modify("packages/vue/package.json", 1, 1));

        // two tokens more than the real "release: v3.4.1" rather than four ("in CHANGELOG . md")
        assertThat(SubjectLength.fit(Subject.parse("release: v3.4.1"), d).render())
                .isEqualTo("release: v3.4.1 in CHANGELOG");
        assertThat(SubjectLength.documentName("README.rst")).isEqualTo("README");
        // not a document: keeps its extension, and so does a lower-case name
        assertThat(SubjectLength.documentName("package.json")).isNull();
        assertThat(SubjectLength.documentName("changes.md")).isNull();
        assertThat(SubjectLength.documentName("NOTICE")).isNull();
    }

    @Test
    void keepsPrefixesAndNamesTheFileWholeWhenItIsNamedAlready() {
        DiffedCommit d = diff(modify("packages/runtime-core/src/vnode.ts", 4, 1));

        Subject s = SubjectLength.fit(Subject.parse("fix(vnode): vnode"), d);
        assertThat(s.render()).as("the file's whole name, not the folder it is in").isEqualTo("fix(vnode): vnode.ts");
        assertThat(s.scope()).isEqualTo("vnode");
        assertThat(SubjectLength.fit(Subject.parse("fix: vnode"), d).render())
                .as("still too short whole: its folder").isEqualTo("fix: vnode in packages/runtime-core/src");
    }

    @Test
    void aFileTheSubjectNamesAlreadyIsNotNamedAgain() {
        DiffedCommit readme = diff(modify("README.md", 4, 1));
        assertThat(SubjectLength.fit("Update README", readme)).as("where no place fits, its whole name, short")
                .isEqualTo("Update README.md");
        assertThat(SubjectLength.fit("Update ChangeLog", diff(modify("ChangeLog", 4, 1))))
                .as("a name with no extension: as it is").isEqualTo("Update ChangeLog");
        assertThat(SubjectLength.fit(Subject.parse("Update README"), readme, SubjectLength.MIN, true).render())
                .as("a floor the deployment sets holds").isEqualTo("Update README in this repository");
        assertThat(SubjectLength.fit("Fix a typo", diff(modify("ChangeLog", 4, 1))))
                .as("a subject that does not name its file is padded with it").isEqualTo("Fix a typo in ChangeLog");
        DiffedCommit walk = diff(modify("org.eclipse.jgit/src/org/eclipse/jgit/revwalk/RevWalk.java", 1, 1));
        assertThat(SubjectLength.fit(Subject.parse("RevWalk: @since 7.8"), walk).render()).as("its area")
                .isEqualTo("RevWalk: @since 7.8 in org.eclipse.jgit/src/org/eclipse/jgit/revwalk");
    }

    @Test
    void aLongDescriptionIsCutAtItsFirstSentencesEnd() {
        assertThat(SubjectLength.cut("Implemented BlackDClient. This simple python client allows running formatting "
                + "through the server", 72)).isEqualTo("Implemented BlackDClient");
        assertThat(SubjectLength.cut("Fix it. Then more words follow here until the limit of the subject is passed "
                + "by far", 72)).as("a first sentence too short to stand alone").isNotEqualTo("Fix it").startsWith("Fix it. Then more words");
    }

    @Test
    void aSentencesPeriodStaysAtItsEnd() {
        DiffedCommit d = diff(modify(".github/workflows/regress.yml", 1, 1));
        assertThat(SubjectLength.fit("Fix.", d)).isEqualTo("Fix in .github/workflows/regress.yml.");
        assertThat(SubjectLength.fit("More...", d)).as("an ellipsis is no sentence's period")
                .isEqualTo("More... in regress.yml");
    }

    @Test
    void saysInThisRepositoryWhenNoNameFits() {
        String longName = "x/" + "VeryLongClassName".repeat(6) + ".java";
        DiffedCommit d = diff(modify(longName, 1, 1));

        String s = SubjectLength.fit("Update 1 file in x", d);
        assertThat(s).isEqualTo("Update 1 file in x in this repository");
        assertThat(SubjectLength.conforms(s)).isTrue();
    }

    @Test
    void emptyBecomesTheTemplateDescription() {
        DiffedCommit d = diff(modify("gpu/src/main/java/io/commitflow/gpu/CudaEngine.java", 30, 2));

        assertThat(SubjectLength.fit(Subject.parse("").withDescription(""), d).render())
                .isEqualTo("Update CudaEngine.java");
        assertThat(SubjectLength.fit("", diff())).isEqualTo("Record an empty commit");
    }

    @Test
    void cutsLongDescriptionsAtAWordWithoutDanglingJoiners() {
        DiffedCommit d = diff(modify("a/B.java", 1, 1));
        String longer = "[FLINK-12345][connectors/kafka] Make the Kafka sink retry transactions that timed out on the "
                + "broker and the writer";

        Subject s = SubjectLength.fit(Subject.parse(longer), d);

        assertThat(s.render()).hasSizeBetween(20, 72)
                .isEqualTo("[FLINK-12345][connectors/kafka] Make the Kafka sink retry transactions");
        assertThat(s.ticket()).isEqualTo("FLINK-12345");
    }

    @Test
    void cutsBeforeTheLastClauseThatFitsSoTheSubjectEndsAsAPhrase() {
        DiffedCommit d = diff(modify("a/B.java", 1, 1));

        assertThat(SubjectLength.fit("ClassUtils now throws IllegalArgumentException if a class name length is too long", d))
                .isEqualTo("ClassUtils now throws IllegalArgumentException");
        // unless the words that fit end on a name (aCutEndsOnANameRatherThanBeforeTheClauseThatHoldsIt)
        assertThat(SubjectLength.fit("Deprecate NumberUtils.compare(byte, byte) in favor of Byte.compare(byte, byte)", d))
                .isEqualTo("Deprecate NumberUtils.compare(byte, byte) in favor of Byte.compare");
        // a verb and a long name are a phrase: not "… to cover common", cut mid-phrase where the line ran out
        assertThat(SubjectLength.fit(Subject.parse(
                "[FLINK-1] Add KafkaRecordSerializationSchemaBuilder to cover common serialization scenarios"), d)
                .render()).isEqualTo("[FLINK-1] Add KafkaRecordSerializationSchemaBuilder");
        // vuejs/core: a time clause is one too ("handle switching away" was left when "from" was the last boundary)
        assertThat(SubjectLength.fit(Subject.parse(
                "fix(runtime-core): handle switching away from kept-alive component before resolve"), d).render())
                .isEqualTo("fix(runtime-core): handle switching away from kept-alive component");
        // flink-connector-kafka: two verbs share the object, and "to forward" would hang
        assertThat(SubjectLength.fit(Subject.parse(
                "[FLINK-1][connector-kafka][json] Show usage of helper to forward and merge options"), d).render())
                .isEqualTo("[FLINK-1][connector-kafka][json] Show usage of helper");
        assertThat(SubjectLength.fit("Move the pack writer statistics to the new module and drop the old writer statistics", d))
                .as("not an infinitive: the cut stays before \"and\"")
                .isEqualTo("Move the pack writer statistics to the new module");
        // a clause that would leave fewer than 20 characters is not where it ends: the word cut is
        assertThat(SubjectLength.fit("Fix it when " + "the writer has gone away ".repeat(4), d))
                .hasSizeBetween(50, 72).startsWith("Fix it when the writer has gone away the writer");
    }

    @Test
    void aSubjectNeverEndsOnAJoinerNorIsCutToABareName() {
        DiffedCommit d = diff(modify("src/main/java/org/apache/commons/lang3/ArrayUtils.java", 3, 1));

        assertThat(SubjectLength.fit(Subject.parse("Add missing test coverage for"), d).render())
                .isEqualTo("Add missing test coverage");
        assertThat(SubjectLength.fit(Subject.parse("ArrayUtils: tries to set visibility on"), d).render())
                .isEqualTo("ArrayUtils: tries to set visibility");
        // nor on a verb that waits for its own: of "… mode should be transitioned correctly"
        assertThat(SubjectLength.fit(Subject.parse(
                "fix(transition): toggling branches with in-out mode should be transitioned correctly"), d).render())
                .isEqualTo("fix(transition): toggling branches with in-out mode");
        assertThat(SubjectLength.withoutDanglingEnd("SpecifiedOffsetsInitializer should not"))
                .isEqualTo("SpecifiedOffsetsInitializer");
        assertThat(SubjectLength.cut("Introduce a new Kafka connect or with new property keys for the table factory", 40))
                .as("before a clause too").isEqualTo("Introduce a new Kafka connect");
        assertThat(SubjectLength.withoutDanglingEnd("AtomicSafeInitializer.get() can"))
                .isEqualTo("AtomicSafeInitializer.get()");
        assertThat(SubjectLength.withoutDanglingEnd("The first faithful exemplar, no old PR numbers, no"))
                .as("a determiner waits for its noun").isEqualTo("The first faithful exemplar, no old PR numbers");
        assertThat(SubjectLength.withoutDanglingEnd("Check whether a key is set or not")).as("no auxiliary before it")
                .isEqualTo("Check whether a key is set or not");
        assertThat(SubjectLength.withoutDanglingEnd("Kill the broker after both commits of a checkpoint, not"))
                .as("a contrast waits for what it contrasts").isEqualTo("Kill the broker after both commits of a checkpoint");
        assertThat(SubjectLength.withoutDanglingEnd("An area is named after a changed source or test file, never"))
                .isEqualTo("An area is named after a changed source or test file");
        assertThat(SubjectLength.withoutDanglingEnd("AtomicSafeInitializer.get() busy-spin burns CPU during"))
                .isEqualTo("AtomicSafeInitializer.get() busy-spin burns CPU");
        // the one word a cut leaves of a last clause goes with it; a whole subject keeps its clauses
        cutsTo(62, "Load test: call() in the load test's phases; measuring in LoadMeasurement",
                "Load test: call() in the load test's phases");
        cutsTo(60, "Spans per stage with the OpenTelemetry SDK, exported over OTLP when configured",
                "Spans per stage with the OpenTelemetry SDK");
        // a participle after its preposition waits for its noun, but "from" and a gerund complete a verb
        cutsTo(66, "fixed truncation of long collections in the message part of failed assertions, with -vv",
                "fixed truncation of long collections in the message part");
        assertThat(SubjectLength.withoutStub("prevent `toMatchObject`/subset matching from throwing"))
                .isEqualTo("prevent `toMatchObject`/subset matching from throwing");
        assertThat(SubjectLength.cut("README: engine, load test and demo figures, tables and notes for the site", 50))
                .as("a plain word after a comma may be a whole list item").isEqualTo("README: engine, load test and demo figures, tables");
        assertThat(SubjectLength.fit(Subject.parse("Fix the parser's lookahead; cleanup"), d).render())
                .isEqualTo("Fix the parser's lookahead; cleanup");
        // "RecursiveToStringStyle" alone would be 22 characters but one word: the cut keeps a phrase
        assertThat(SubjectLength.fit("RecursiveToStringStyle for nested objects prints their fields and their fields too", d))
                .hasSizeBetween(20, 72).startsWith("RecursiveToStringStyle for nested objects");
    }

    @Test
    void aSemicolonOrADashEndsAPhrase() {
        // the demo's "ServerPayloadKinds: Fuzz the running job", of "… with hostile input; fix two holes it found"
        cutsTo(52, "Fuzz the running job with hostile input; fix two holes it found",
                "Fuzz the running job with hostile input");
        cutsTo(64, "The fourth round of 2026-12-03 \u2014 change-log tags, test titles, cuts on a name",
                "The fourth round of 2026-12-03");
    }

    @Test
    void aNegationKeepsTheClauseThatBoundsIt() {
        // the demo's "SubjectLength: A subject is not cut", of "… is not cut to end on a modal verb or an auxiliary's
        // "not"": the clause cut says the opposite; the words that fit keep the bound
        cutsTo(56, "A subject is not cut to end on a modal verb or an auxiliary's \"not\"",
                "A subject is not cut to end on a modal verb");
        // vuejs/core: "fix(reactivity): should not recompute" of "… if computed does not track reactive data"
        cutsTo(50, "should not recompute if computed does not track reactive data",
                "should not recompute if computed does not track");
        cutsTo(40, "Never fail when the mirror lags behind the pushed ref by a lot",
                "Never fail when the mirror lags behind");
        // a contrast after a comma is whole, and a negation with its object stands: the clause cut is kept
        cutsTo(56, "A long name costs the scope, not itself; cut before a member",
                "A long name costs the scope, not itself");
        cutsTo(48, "Do not retry a failed diff when the mirror has no such commit yet", "Do not retry a failed diff");
    }

    /** {@code text} cut to {@code max} characters is {@code expected}. */
    private static void cutsTo(int max, String text, String expected) {
        assertThat(SubjectLength.cut(text, max)).as("%s, cut to %d", text, max).isEqualTo(expected);
    }

    @Test
    void aCutEndsOnANameRatherThanBeforeTheClauseThatHoldsIt() {
        // the words that fit end on a name: a phrase's end, kept (the clause cut left "Deprecate NumberUtils.compare(int, int)")
        cutsTo(70, "Deprecate NumberUtils.compare(int, int) in favor of Integer.compare(int, int) everywhere",
                "Deprecate NumberUtils.compare(int, int) in favor of Integer.compare");
        cutsTo(62, "handle initial selected state for select with v-model + v-for option value",
                "handle initial selected state for select with v-model + v-for");
        assertThat(SubjectLength.cut("Support abbreviation TIMESTAMP_LTZ for TIMESTAMP WITH LOCAL TIME ZONE", 51))
                .as("a dangling joiner goes first").isEqualTo("Support abbreviation TIMESTAMP_LTZ for TIMESTAMP");
        // English words are no names: the clause cut stands
        cutsTo(55, "improve ref performance by using class-based implementation", "improve ref performance");
        cutsTo(50, "fix ssr compile error for select with non-option children", "fix ssr compile error for select");
        // nor after a clause that waits for its verb
        cutsTo(45, "Unregister ShutdownHook when GC#PidLock is closed and released", "Unregister ShutdownHook");
        // "and" between two names joins them, no clause: the cut does not stop between them
        cutsTo(55, "Introduce TestKafkaContainer wrapper for Apache and Confluent Kafka images",
                "Introduce TestKafkaContainer wrapper");
        assertThat(SubjectLength.cut("Fix the flaky KafkaSinkITCase for brokers and add a retry to the writer", 55))
                .as("a clause that starts with a verb still ends the subject").isEqualTo("Fix the flaky KafkaSinkITCase for brokers");
        assertThat(SubjectLength.isName("beforeUpdate")).isTrue();
        assertThat(SubjectLength.isName("API")).isTrue();
        assertThat(SubjectLength.isName("`ref`")).isTrue();
        assertThat(SubjectLength.isName("A")).isFalse();
        assertThat(SubjectLength.isName("out-in")).isFalse();
    }

    @Test
    void aCutThatLeavesOneWordSaysNothing() {
        DiffedCommit d = diff(modify("src/main/java/org/apache/commons/lang3/reflect/MethodUtils.java", 3, 1));
        // commons-lang's change-log style: the member's argument list would be left open, and closing it leaves the name
        Subject entry = Subject.parse("org.apache.commons.lang3.reflect.MethodUtils.getMethodObject(Class<?>, String, "
                + "Class<?>...) now returns null instead of throwing a NullPointerException");
        assertThat(SubjectLength.fit(entry, d).description()).isEqualTo("org.apache.commons.lang3.reflect.MethodUtils.getMethodObject");
        assertThat(SubjectLength.keepsPhrase(entry, d)).isFalse();
        assertThat(SubjectLength.keepsPhrase(Subject.parse("RecursiveToStringStyle for nested objects prints their "
                + "fields and their fields too"), d)).as("a cut that keeps a phrase").isTrue();
        assertThat(SubjectLength.keepsPhrase(Subject.parse("Javadoc"), d)).as("short is lengthened, not cut").isTrue();
    }

    @Test
    void aLongNameThatDoesNotFitBesideTheScopeCostsTheScopeNotTheName() {
        DiffedCommit d = diff(modify("a/B.java", 1, 1));

        assertThat(SubjectLength.fit(Subject.parse("[FLINK-31049][connectors/kafka] Add "
                + "KafkaRecordSerializationSchemaBuilder headers"), d).render())
                .isEqualTo("[FLINK-31049] Add KafkaRecordSerializationSchemaBuilder headers");
        // a member is a boundary too: the class stays whole
        assertThat(SubjectLength.fit(Subject.parse("[FLINK-1] Deflake "
                + "KafkaWriterFaultToleranceITCase.testWriteExceptionWhenTheBrokerIsGone"), d).render())
                .isEqualTo("[FLINK-1] Deflake KafkaWriterFaultToleranceITCase");
    }

    @Test
    void dropsTheRestOfALongPrefixButKeepsTheTicket() {
        DiffedCommit d = diff(modify("a/B.java", 1, 1));
        String tags = "[FLINK-1][" + "x".repeat(38) + "][" + "y".repeat(20) + "] ";

        String s = SubjectLength.fit(Subject.parse(tags + "Fix the writer when the broker is gone"), d).render();

        assertThat(s).hasSizeBetween(20, 72).startsWith("[FLINK-1] Fix the writer");
    }

    @Test
    void neverLeavesAnArgumentListOpen() {
        DiffedCommit d = diff(modify("a/MethodUtils.java", 1, 1));
        String longer = "Annotation lookup in MethodUtils.getAnnotation(Method, Class, boolean, boolean) matches overloads";

        assertThat(SubjectLength.fit(Subject.parse(longer), d).render()).isEqualTo(
                "Annotation lookup in MethodUtils.getAnnotation");
        // commons-lang's history: a first line wrapped inside the argument list, though it fits
        assertThat(SubjectLength.fit(Subject.parse("Two fixes in RandomStringUtils.random(int, int, int, boolean, boolean,"), d)
                .render()).isEqualTo("Two fixes in RandomStringUtils.random");
        assertThat(SubjectLength.fit(Subject.parse("Fix MethodUtils.getAnnotation(Method, Class)"), d).render())
                .as("a closed list stays").isEqualTo("Fix MethodUtils.getAnnotation(Method, Class)");
        assertThat(SubjectLength.closed("fix(types): explain the utility type IfAny<T, Y, N> [ci"))
                .isEqualTo("fix(types): explain the utility type IfAny<T, Y, N>");
        assertThat(SubjectLength.closed("MethodUtils.getAnnotation fails with \"Found multiple candidates"))
                .as("commons-lang's history cuts its quotations too: closed, not dropped")
                .isEqualTo("MethodUtils.getAnnotation fails with \"Found multiple candidates\"");
        assertThat(SubjectLength.closed("Fix x(a, \"b")).isEqualTo("Fix x");
        assertThat(SubjectLength.closed("Handle `foo(` in \"a (b\" quotes")).as("quoted, not open")
                .isEqualTo("Handle `foo(` in \"a (b\" quotes");
        assertThat(SubjectLength.closed("Fix `x in y")).isEqualTo("Fix `x in y`");
    }

    @Test
    void cutsARevertInsideItsQuotes() {
        String reverted = "Make the Kafka sink retry transactions that timed out on the broker while away";
        String s = SubjectLength.fit("Revert \"" + reverted + "\"", diff(modify("a/B.java", 1, 1)));

        assertThat(s).hasSizeBetween(20, 72).startsWith("Revert \"Make the Kafka sink").endsWith("\"");
        // every word is the reverted commit's own: as many as fit, the cut marked (the clause cut left "… sink retry
        // transactions")
        assertThat(s).isEqualTo("Revert \"Make the Kafka sink retry transactions that timed out on the\u2026\"");
    }

    @Test
    void leavesAFittingSubjectAlone() {
        Subject s = Subject.parse("fix(runtime-core): handle null vnode");
        assertThat(SubjectLength.fit(s, diff(modify("a/B.java", 1, 1)))).isEqualTo(s);
    }

    @Test
    void conformsMeansTwentyToSeventyTwo() {
        assertThat(SubjectLength.conforms("x".repeat(19))).isFalse();
        assertThat(SubjectLength.conforms("x".repeat(20))).isTrue();
        assertThat(SubjectLength.conforms("x".repeat(72))).isTrue();
        assertThat(SubjectLength.conforms("x".repeat(73))).isFalse();
        assertThat(SubjectLength.conforms(null)).isFalse();
    }

    @Test
    void mentionsAsTheWholeWordPatternItReplacedDoes() {
        List<String[]> cases = List.of(new String[] {"Fix NPE in DirCacheCheckout", "dircachecheckout"},
                new String[] {"Fix NPE in DirCacheCheckoutTest", "DirCacheCheckout"},
                new String[] {"Update org.RevWalk", "RevWalk"}, new String[] {"RevWalk: free flags", "RevWalk"},
                new String[] {"see pack_size", "size"}, new String[] {"README.md tweaks", "README"},
                new String[] {"Übersicht ändern", "übersicht"}, new String[] {"Übersicht ändern", "ÄNDERN"},
                new String[] {"a b", ""}, new String[] {"", "x"}, new String[] {"x-y", "y"});
        for (String[] c : cases) {
            boolean regex = java.util.regex.Pattern.compile("(?<![\\w.])" + java.util.regex.Pattern.quote(c[1])
                    + "(?![\\w])", java.util.regex.Pattern.CASE_INSENSITIVE).matcher(c[0]).find();
            assertThat(SubjectLength.mentions(c[0], c[1])).as(c[0] + " / " + c[1]).isEqualTo(regex);
        }
        assertThat(SubjectLength.mentions("Fix NPE in DirCacheCheckout", "dircachecheckout")).isTrue();
        assertThat(SubjectLength.mentions("Update org.RevWalk", "RevWalk")).isFalse();
    }
}
