// Guards that a name says one thing across src/: no two modules export a declaration of the same name, so reading
// `import { x }` never needs the path to know which x it is. A module re-exporting another's declaration
// (`export { x } from './y.ts'`) names the same thing and is not a second one.
import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

const root = join(import.meta.dirname, '..', '..');

/** The names a module's own top-level declarations export (a default export has no name of its own). */
function exportedNames(path: string): string[] {
  const source = ts.createSourceFile(path, readFileSync(join(root, path), 'utf8'), ts.ScriptTarget.Latest);
  const names: string[] = [];
  for (const statement of source.statements) {
    if (ts.isExportDeclaration(statement)) {
      if (statement.moduleSpecifier === undefined && statement.exportClause
        && ts.isNamedExports(statement.exportClause)) {
        names.push(...statement.exportClause.elements.map((element) => element.name.text));
      }
      continue;
    }
    const modifiers = ts.canHaveModifiers(statement) ? ts.getModifiers(statement) ?? [] : [];
    if (!modifiers.some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword)) continue;
    if (modifiers.some((modifier) => modifier.kind === ts.SyntaxKind.DefaultKeyword)) continue;
    if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) {
        if (ts.isIdentifier(declaration.name)) names.push(declaration.name.text);
      }
    } else if ('name' in statement && statement.name && ts.isIdentifier(statement.name as ts.Node)) {
      names.push((statement.name as ts.Identifier).text);
    }
  }
  return names;
}

/** Each exported name that more than one module of `files` declares, with those modules. */
function namesExportedTwice(files: string[]): Record<string, string[]> {
  const modulesOf = new Map<string, string[]>();
  for (const file of files) {
    for (const name of new Set(exportedNames(file))) modulesOf.set(name, [...modulesOf.get(name) ?? [], file]);
  }
  return Object.fromEntries([...modulesOf].filter(([, modules]) => modules.length > 1));
}

describe('exported names in src/', () => {
  const files = readdirSync(join(root, 'src'), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts'))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)));

  it('when the modules of src/ are read, then each declares its exports (functions, constants, types, classes)', () => {
    const resolution = exportedNames('src/contract/resolution.ts');
    expect(resolution).to.include.members(['operationOf', 'ResolvedOperation']);
    expect(files.length).to.be.greaterThan(100);
  });

  it('when two modules export a declaration of one name, then this names it and both', () => {
    const resolution = 'src/contract/resolution.ts';
    const twice = namesExportedTwice([resolution, 'src/config/config.ts', resolution]);
    expect(Object.keys(twice)).to.have.members(exportedNames(resolution));
    expect(twice['operationOf']).to.deep.equal([resolution, resolution]);
  });

  it('when the modules of src/ are read, then no two export a declaration of one name', () => {
    expect(namesExportedTwice(files)).to.deep.equal({});
  });
});
