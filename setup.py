"""Install ciauto from the settings in settings.ini (nbdev 2 layout)."""
import shlex
from configparser import ConfigParser

from setuptools import find_namespace_packages, setup

config = ConfigParser(delimiters=['='])
config.read('settings.ini', encoding='utf-8')
cfg = config['DEFAULT']
# `dev_requirements` -> the `dev` extra; any other `<name>_requirements` key -> the `<name>` extra (e.g. `optuna`).
extras = {key[:-len('_requirements')]: shlex.split(value) for key, value in cfg.items()
          if key.endswith('_requirements') and value.strip()}

setup(
    name=cfg['lib_name'],
    version=cfg['version'],
    description=cfg['description'],
    long_description=open('README.md', encoding='utf-8').read(),
    long_description_content_type='text/markdown',
    keywords=cfg['keywords'],
    author=cfg['author'],
    author_email=cfg['author_email'],
    license='Apache-2.0',
    license_files=['LICENSE'],
    url=cfg['git_url'],
    project_urls={'Documentation': f"{cfg['doc_host']}{cfg['doc_baseurl']}", 'Source': cfg['git_url']},
    classifiers=[
        'Development Status :: 3 - Alpha',
        'Intended Audience :: Science/Research',
        'Programming Language :: Python :: 3',
        'Programming Language :: Python :: 3.11',
        'Programming Language :: Python :: 3.12',
        'Programming Language :: Python :: 3.13',
        'Topic :: Scientific/Engineering :: Artificial Intelligence',
    ],
    # ciauto/data holds no __init__.py: found as a namespace package, so its files are package data of their own
    packages=find_namespace_packages(include=['ciauto', 'ciauto.*']),
    include_package_data=True,
    package_data={'ciauto': ['data/*']},
    install_requires=shlex.split(cfg.get('requirements', '')),
    extras_require=extras,
    python_requires='>=' + cfg['min_python'],
    zip_safe=False,
    entry_points={
        'console_scripts': cfg.get('console_scripts', '').split(),
        'nbdev': [f"{cfg['lib_path']}={cfg['lib_path']}._modidx:d"],
    },
)
