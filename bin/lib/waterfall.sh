# Sourced by bin/compare: the waterfall report needs an XML JTL with sub-results and response
# headers, while JMeter's dashboard and the comparison need the CSV one, and JMeter writes one -l
# file. So the plan is run from a copy with one more listener (a Simple Data Writer with its own
# XML save settings) at the test plan's level, which sees every sample.

# with_xml_writer PLAN XML_FILE COPY: writes COPY = PLAN plus a writer of XML_FILE
with_xml_writer() {
  local plan="$1" xml="$2" copy="$3"
  awk -v xml="$xml" '
    { line[NR] = $0 }
    END {
      # a JMX ends with the test plan hashTree closing, the outer hashTree closing, </jmeterTestPlan>
      end = NR
      while (end > 0 && line[end] !~ /<\/jmeterTestPlan>/) end--
      if (end < 3) { print "no </jmeterTestPlan> in the plan" > "/dev/stderr"; exit 1 }
      for (i = 1; i < end - 2; i++) print line[i]
      print "      <ResultCollector guiclass=\"SimpleDataWriter\" testclass=\"ResultCollector\" testname=\"XML JTL for the waterfalls\">"
      print "        <boolProp name=\"ResultCollector.error_logging\">false</boolProp>"
      print "        <objProp><name>saveConfig</name><value class=\"SampleSaveConfiguration\">"
      n = split("time latency timestamp success label code message threadName dataType assertions subresults xml fieldNames responseHeaders saveAssertionResultsFailureMessage bytes sentBytes url threadCounts idleTime connectTime", on, " ")
      for (k = 1; k <= n; k++) printf "          <%s>true</%s>\n", on[k], on[k]
      n = split("encoding responseData samplerData requestHeaders responseDataOnError", off, " ")
      for (k = 1; k <= n; k++) printf "          <%s>false</%s>\n", off[k], off[k]
      print "          <assertionsResultsToSave>0</assertionsResultsToSave>"
      print "        </value></objProp>"
      printf "        <stringProp name=\"filename\">%s</stringProp>\n", xml
      print "      </ResultCollector>"
      print "      <hashTree/>"
      for (i = end - 2; i <= NR; i++) print line[i]
    }' "$plan" >"$copy"
}
