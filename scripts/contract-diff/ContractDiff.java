// Compares two OpenAPI documents with openapi-diff and prints its Markdown changelog, then one line the gate reads.
import java.io.File;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.openapitools.openapidiff.core.OpenApiCompare;
import org.openapitools.openapidiff.core.model.ChangedOpenApi;
import org.openapitools.openapidiff.core.output.MarkdownRender;

public class ContractDiff {
  public static void main(String[] args) throws Exception {
    if (args.length != 2) {
      System.err.println("usage: ContractDiff <old openapi.yaml> <new openapi.yaml>");
      System.exit(2);
    }
    ChangedOpenApi diff = OpenApiCompare.fromFiles(new File(args[0]), new File(args[1]));
    // The renderer closes a writer it is given, so it renders to a string.
    PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    out.println(new MarkdownRender().render(diff));
    // UNCHANGED, METADATA, COMPATIBLE or INCOMPATIBLE: scripts/contract-diff.ts decides with it and info.version.
    out.println("openapi-diff result: " + diff.isChanged());
  }
}
