// The one place a Docker client is constructed. DOCKER_HOST is honoured by dockerode itself.
import Docker from 'dockerode';

export function createDockerClient(): Docker {
  return new Docker();
}

export async function dockerAnswers(docker: Docker): Promise<boolean> {
  try {
    await docker.ping();
    return true;
  } catch {
    return false;
  }
}

export async function imageExists(docker: Docker, tag: string): Promise<boolean> {
  try {
    await docker.getImage(tag).inspect();
    return true;
  } catch (error) {
    if ((error as { statusCode?: number }).statusCode === 404) return false;
    throw error;
  }
}
