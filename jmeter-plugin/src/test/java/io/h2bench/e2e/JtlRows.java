package io.h2bench.e2e;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;

/** Every row of a CSV JTL as column name to text, responseMessage included (the report's Sample drops it). */
final class JtlRows {

    private JtlRows() {
    }

    static List<Map<String, String>> read(Path jtl) throws IOException {
        if (!Files.exists(jtl)) {
            return List.of();
        }
        CSVFormat format = CSVFormat.DEFAULT.builder().setHeader().setSkipHeaderRecord(true).build();
        List<Map<String, String>> rows = new ArrayList<>();
        try (Reader in = Files.newBufferedReader(jtl, StandardCharsets.UTF_8); CSVParser parser = CSVParser.parse(in, format)) {
            for (CSVRecord row : parser) {
                rows.add(row.toMap());
            }
        }
        return rows;
    }

    static boolean failed(Map<String, String> row) {
        return !Boolean.parseBoolean(row.get("success"));
    }
}
