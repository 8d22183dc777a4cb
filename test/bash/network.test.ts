import { beforeAll, describe, expect, test } from 'vitest';
import { analyze, loadBash } from '../../src/bash/analyze.js';

beforeAll(loadBash);

/** Whether a program talks to the network is its module's word; the effect oracle holds it to what it does. */
describe('commands declared to use the network', () => {
  test.each([
    ['kubectl get pods', true],
    ['kubectl --kubeconfig k.yaml get pods', true],
    ['kubectl version', true],
    ['kubectl version --client', false],
    ['kubectl config view', false],
    ['kubectl kustomize .', false],
    ['git fetch origin', true],
    ['git -C sub pull', true],
    ['git remote update', true],
    ['git ls-remote origin', true],
    ['git status', false],
    ['git log -p', false],
    ['docker ps', false],
    ['docker -H tcp://10.0.0.1:2375 ps', true],
    ['docker -H unix:///run/docker.sock ps', false],
    ['docker --context remote ps', true],
    ['docker manifest inspect --verbose out.txt', true],
    ['docker manifest inspect alpine', true],
    ['docker manifest annotate l m --os linux', false],
    ['docker manifest rm l', false],
    ['docker pull alpine', true],
    ['docker image push x', true],
    ['docker search redis', true],
    ['docker login -u u', true],
    ['docker run --rm alpine true', true],
    ['docker build .', true],
    ['docker trust inspect x', true],
    ['podman manifest inspect x', true],
    ['docker images', false],
    ['docker image inspect alpine', false],
    ['docker logs c', false],
    ['cat f', false],
  ])('%s: %s', (line, network) => {
    expect(analyze(line).commands[0]!.network === true).toBe(network);
  });
});
