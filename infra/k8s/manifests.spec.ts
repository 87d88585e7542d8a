import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { EVENT_TYPES } from '@app/contracts';
import { SERVICE_NAMES } from '../../gateway/src/proxy/routes';

/**
 * Schema check for the deploy files (issue 9): every k8s manifest and docker-compose.yml parse,
 * carry the fields their kind needs, and refer only to things that exist.
 */
type Doc = Record<string, unknown>;
type Manifest = { file: string; apiVersion: string; kind: string; metadata: { name: string; labels?: Record<string, string> }; spec?: Doc; data?: Doc; stringData?: Doc };

const root = resolve(__dirname, '../..');
/** The deployables on MongoDB (`kubectl apply -k infra/k8s` applies it); `postgres/` is the overlay onto PostgreSQL. */
const k8sDir = join(__dirname, 'base');
const postgresDir = join(__dirname, 'postgres');
const yamlFiles = readdirSync(k8sDir).filter((f) => f.endsWith('.yaml'));

const obj = (v: unknown): Doc => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Doc) : {});
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v.length > 0 ? v : undefined);

function loadManifests(dir = k8sDir, files = yamlFiles): Manifest[] {
  return files
    .filter((f) => f !== 'kustomization.yaml')
    .flatMap((file) =>
      parseAllDocuments(readFileSync(join(dir, file), 'utf8')).map((doc) => {
        if (doc.errors.length > 0) throw new Error(`${file}: ${doc.errors[0].message}`);
        return { file, ...(doc.toJS() as Omit<Manifest, 'file'>) };
      }),
    );
}

const manifests = loadManifests();
const ofKind = (kind: string) => manifests.filter((m) => m.kind === kind);
const deployments = ofKind('Deployment');
const DEPLOYABLES = [...SERVICE_NAMES, 'gateway'];
/** Partitions the topic job gives each topic: the most replicas a consumer group can use. */
const PARTITIONS = 6;

function podSpec(d: Manifest): Doc {
  return obj(obj(obj(d.spec).template).spec);
}
function containersOf(d: Manifest): Doc[] {
  return arr(podSpec(d).containers).map(obj);
}

describe('k8s manifests', () => {
  it('parse, and every document names its apiVersion, kind and metadata.name', () => {
    expect(manifests.length).toBeGreaterThan(0);
    for (const m of manifests) {
      expect({ file: m.file, apiVersion: str(m.apiVersion), kind: str(m.kind), name: str(m.metadata?.name) }).toEqual({
        file: m.file,
        apiVersion: expect.any(String),
        kind: expect.any(String),
        name: expect.any(String),
      });
    }
  });

  it('have no two resources of one kind with the same name', () => {
    const keys = manifests.map((m) => `${m.kind}/${m.metadata.name}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('list every file in the kustomization, and nothing that is missing', () => {
    const kustomization = obj(parse(readFileSync(join(k8sDir, 'kustomization.yaml'), 'utf8')));
    expect(kustomization.kind).toBe('Kustomization');
    const resources = arr(kustomization.resources).map(String);
    expect(resources.sort()).toEqual(yamlFiles.filter((f) => f !== 'kustomization.yaml').sort());
  });

  it('have a Deployment, a Service and an autoscaler for the gateway and every service', () => {
    for (const kind of ['Deployment', 'Service', 'HorizontalPodAutoscaler']) {
      expect(ofKind(kind).map((m) => m.metadata.name).sort()).toEqual([...DEPLOYABLES].sort());
    }
  });

  describe.each(DEPLOYABLES)('Deployment %s', (name) => {
    const d = () => {
      const found = deployments.find((m) => m.metadata.name === name);
      if (!found) throw new Error(`no Deployment ${name}`);
      return found;
    };

    it('uses apps/v1 and a selector that matches its pod labels', () => {
      expect(d().apiVersion).toBe('apps/v1');
      const selector = obj(obj(obj(d().spec).selector).matchLabels);
      const labels = obj(obj(obj(obj(d().spec).template).metadata).labels);
      expect(Object.keys(selector).length).toBeGreaterThan(0);
      expect(labels).toMatchObject(selector);
    });

    it('runs containers with an image, port 3000, resources, probes and env from the ConfigMap and Secret', () => {
      const containers = containersOf(d());
      expect(containers.length).toBeGreaterThan(0);
      for (const c of containers) {
        expect(str(c.image)).toBeDefined();
        expect(arr(c.ports).map((p) => obj(p).containerPort)).toContain(3000);
        const resources = obj(c.resources);
        for (const level of ['requests', 'limits']) {
          expect(obj(resources[level])).toEqual({ cpu: expect.any(String), memory: expect.any(String) });
        }
        expect(obj(obj(c.readinessProbe).httpGet)).toMatchObject({ path: '/health/ready' });
        expect(obj(obj(c.livenessProbe).httpGet)).toMatchObject({ path: '/health/live' });
        for (const probe of [c.readinessProbe, c.livenessProbe]) {
          const port = obj(obj(probe).httpGet).port;
          expect(port === 3000 || arr(c.ports).some((p) => obj(p).name === port && obj(p).containerPort === 3000)).toBe(true);
        }
        const sources = arr(c.envFrom).map(obj);
        const configMap = str(obj(sources.find((s) => s.configMapRef)?.configMapRef).name);
        const secret = str(obj(sources.find((s) => s.secretRef)?.secretRef).name);
        expect(ofKind('ConfigMap').map((m) => m.metadata.name)).toContain(configMap);
        expect(ofKind('Secret').map((m) => m.metadata.name)).toContain(secret);
      }
    });

    it('runs as a non-root user without privilege escalation', () => {
      const pod = obj(podSpec(d()).securityContext);
      expect(pod.runAsNonRoot).toBe(true);
      expect(Number(pod.runAsUser)).toBeGreaterThan(0);
      for (const c of containersOf(d())) expect(obj(c.securityContext).allowPrivilegeEscalation).toBe(false);
    });

    it('starts the deployable it is named after', () => {
      const env = arr(containersOf(d())[0].env).map(obj);
      expect(env.find((e) => e.name === 'SERVICE')?.value).toBe(name);
    });
  });

  it('has Services whose selectors match a Deployment and whose ports reach port 3000', () => {
    for (const s of ofKind('Service')) {
      const selector = obj(obj(s.spec).selector);
      expect(Object.keys(selector).length).toBeGreaterThan(0);
      const target = deployments.find((d) => {
        const labels = obj(obj(obj(obj(d.spec).template).metadata).labels);
        return Object.entries(selector).every(([k, v]) => labels[k] === v);
      });
      expect({ service: s.metadata.name, target: target?.metadata.name }).toEqual({ service: s.metadata.name, target: expect.any(String) });
      const containerPorts = containersOf(target as Manifest).flatMap((c) => arr(c.ports).map(obj));
      for (const port of arr(obj(s.spec).ports).map(obj)) {
        const reaches = containerPorts.some((p) => p.containerPort === port.targetPort || p.name === port.targetPort);
        expect({ service: s.metadata.name, port: port.port, reaches }).toEqual({ service: s.metadata.name, port: port.port, reaches: true });
      }
    }
  });

  it('has autoscalers (autoscaling/v2, CPU 70%) that target an existing Deployment and stay within the partitions', () => {
    for (const h of ofKind('HorizontalPodAutoscaler')) {
      expect(h.apiVersion).toBe('autoscaling/v2');
      const spec = obj(h.spec);
      const ref = obj(spec.scaleTargetRef);
      expect(ref.kind).toBe('Deployment');
      expect(deployments.map((d) => d.metadata.name)).toContain(ref.name);
      const cpu = arr(spec.metrics).map(obj).find((m) => obj(m.resource).name === 'cpu');
      expect(obj(obj(cpu?.resource).target)).toEqual({ type: 'Utilization', averageUtilization: 70 });
      expect(Number(spec.minReplicas)).toBeGreaterThanOrEqual(1);
      expect(Number(spec.maxReplicas)).toBeGreaterThanOrEqual(Number(spec.minReplicas));
      // Gateway replicas consume no partitions (broadcast groups); services' replicas share theirs.
      if (ref.name !== 'gateway') expect(Number(spec.maxReplicas)).toBeLessThanOrEqual(PARTITIONS);
    }
  });

  it('points the gateway at a Service for every service', () => {
    const gateway = deployments.find((d) => d.metadata.name === 'gateway') as Manifest;
    const env = arr(containersOf(gateway)[0].env).map(obj);
    const services = ofKind('Service').map((s) => s.metadata.name);
    for (const name of SERVICE_NAMES) {
      const url = str(env.find((e) => e.name === `${name.toUpperCase()}_SERVICE_URL`)?.value);
      expect(url).toBe(`http://${name}:3000`);
      expect(services).toContain(name);
    }
  });

  it('creates every event topic with enough partitions', () => {
    const job = ofKind('Job').find((j) => j.metadata.name === 'kafka-topics') as Manifest;
    const c = containersOf(job)[0];
    const script = arr(c.args).join('\n');
    expect(topicsIn(script)).toEqual([...EVENT_TYPES].sort());
    expect(arr(c.env).map(obj).find((e) => e.name === 'PARTITIONS')?.value).toBe(String(PARTITIONS));
  });

  it('keeps placeholder secrets only as stringData with every value set', () => {
    for (const s of ofKind('Secret')) {
      expect(Object.keys(obj(s.stringData)).length).toBeGreaterThan(0);
      for (const v of Object.values(obj(s.stringData))) expect(str(v)).toBeDefined();
    }
    const secretKeys = ofKind('Secret').flatMap((s) => Object.keys(obj(s.stringData)));
    expect(secretKeys).toEqual(expect.arrayContaining(['JWT_SECRET', 'MONGO_URL']));
  });
});

describe('k8s overlay onto PostgreSQL (infra/k8s/postgres)', () => {
  const kustomization = obj(parse(readFileSync(join(postgresDir, 'kustomization.yaml'), 'utf8')));
  const files = readdirSync(postgresDir).filter((f) => f.endsWith('.yaml'));
  const docs = loadManifests(postgresDir, files);
  const patches = arr(kustomization.patches).map((p) => String(obj(p).path));
  const ofPatch = (kind: string, name: string) => docs.find((d) => d.kind === kind && d.metadata.name === name && patches.includes(d.file));

  it('builds on the base and lists every file of its folder', () => {
    expect(kustomization.kind).toBe('Kustomization');
    expect(kustomization.namespace).toBe('squadreviews');
    const resources = arr(kustomization.resources).map(String);
    expect(resources).toContain('../base');
    expect([...resources.filter((r) => r !== '../base'), ...patches].sort()).toEqual(files.filter((f) => f !== 'kustomization.yaml').sort());
  });

  it('patches only resources the base has', () => {
    for (const patch of docs.filter((d) => patches.includes(d.file))) {
      expect({ patch: patch.file, target: manifests.some((m) => m.kind === patch.kind && m.metadata.name === patch.metadata.name) }).toEqual({
        patch: patch.file,
        target: true,
      });
    }
  });

  it('switches every deployable to STORE=postgres with a POSTGRES_URL secret', () => {
    expect(obj(ofPatch('ConfigMap', 'squadreviews-config')?.data).STORE).toBe('postgres');
    expect(str(obj(ofPatch('Secret', 'squadreviews-secrets')?.stringData).POSTGRES_URL)).toMatch(/^postgres:\/\//);
  });

  it("gives every reviews replica one shared volume for the photos, at the data folder", () => {
    const pod = podSpec(ofPatch('Deployment', 'reviews') as Manifest);
    const volume = arr(pod.volumes).map(obj).find((v) => v.persistentVolumeClaim);
    const claimName = obj(volume?.persistentVolumeClaim).claimName;
    const claim = docs.find((d) => d.kind === 'PersistentVolumeClaim' && d.metadata.name === claimName);
    expect(arr(obj(claim?.spec).accessModes)).toEqual(['ReadWriteMany']);
    const mounts = arr(obj(arr(pod.containers)[0]).volumeMounts).map(obj);
    expect(mounts).toContainEqual({ name: volume?.name, mountPath: '/app/.data' });
  });
});

/** The topic names of a `for t in a b c; do` loop, sorted. */
function topicsIn(script: string): string[] {
  const match = /for t in ([^;]+);/.exec(script);
  return (match?.[1].trim().split(/\s+/) ?? []).sort();
}

describe('docker-compose.yml', () => {
  const compose = obj(parse(readFileSync(join(root, 'docker-compose.yml'), 'utf8'), { merge: true }));
  const services = obj(compose.services);
  const named = new Set(Object.keys(obj(compose.volumes)));

  it('defines the engines, every service and the gateway', () => {
    expect(Object.keys(services)).toEqual(expect.arrayContaining(['mongo', 'postgres', 'redis', 'kafka', ...DEPLOYABLES]));
  });

  it('offers PostgreSQL as a profile: every deployable takes STORE and POSTGRES_URL from the shell, every service waits for it when it runs', () => {
    expect(obj(services.postgres).profiles).toEqual(['postgres']);
    for (const name of DEPLOYABLES) {
      const s = obj(services[name]);
      expect(obj(s.environment)).toMatchObject({ STORE: '${STORE:-mongo}', POSTGRES_URL: expect.stringContaining('@postgres:5432/') });
      // The gateway waits for the services, which wait for PostgreSQL.
      if (name !== 'gateway') expect(obj(s.depends_on).postgres).toEqual({ condition: 'service_healthy', required: false });
    }
  });

  it.each(Object.keys(services))('%s has a restart policy and a health check, or waits for one', (name) => {
    const s = obj(services[name]);
    expect(['always', 'unless-stopped', 'on-failure']).toContain(s.restart);
    const deps = obj(s.depends_on);
    const waits = Object.entries(deps).some(([dep, cond]) => {
      const condition = obj(cond).condition;
      return obj(services[dep]).healthcheck !== undefined && (condition === 'service_healthy' || condition === 'service_completed_successfully');
    });
    const hasCheck = arr(obj(s.healthcheck).test).length > 0;
    expect({ name, hasCheck, waits }).not.toEqual({ name, hasCheck: false, waits: false });
    for (const dep of Object.keys(deps)) expect(Object.keys(services)).toContain(dep);
  });

  it.each(Object.keys(services))('%s mounts only declared named volumes and reads an existing env file', (name) => {
    const s = obj(services[name]);
    for (const v of arr(s.volumes)) {
      const source = typeof v === 'string' ? v.split(':')[0] : String(obj(v).source);
      if (!/^[./~]/.test(source)) expect(named).toContain(source);
    }
    const envFiles = typeof s.env_file === 'string' ? [s.env_file] : arr(s.env_file);
    for (const f of envFiles) expect(existsSync(join(root, String(f)))).toBe(true);
  });

  it('starts each deployable with its SERVICE and gives the gateway every service URL', () => {
    for (const name of DEPLOYABLES) expect(obj(obj(services[name]).environment).SERVICE).toBe(name);
    const env = obj(obj(services.gateway).environment);
    for (const name of SERVICE_NAMES) expect(env[`${name.toUpperCase()}_SERVICE_URL`]).toBe(`http://${name}:3000`);
  });

  it('creates the topics KafkaTransport uses (topic = event type)', () => {
    const command = arr(obj(services['kafka-init']).command).join('\n');
    expect(topicsIn(command)).toEqual([...EVENT_TYPES].sort());
    expect(command).toMatch(/--topic "\$\$t"/);
  });
});
